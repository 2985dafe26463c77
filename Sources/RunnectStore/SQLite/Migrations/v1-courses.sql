-- SQLite schema version 1 (v1-courses), as shipped: never edit this file; add a new version.
--
-- Version 1: courses, their scraps (counted by triggers) and the search index.

CREATE TABLE "course" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "title" TEXT NOT NULL, "description" TEXT, "departure_region" TEXT, "departure_city" TEXT, "departure_town" TEXT, "departure_detail" TEXT, "departure_name" TEXT, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "is_uploaded" BOOLEAN NOT NULL DEFAULT 0, "uploaded_at" DATETIME, "scrap_count" INTEGER NOT NULL DEFAULT 0, "distance_m" DOUBLE NOT NULL, "point_count" INTEGER NOT NULL, "stats" TEXT NOT NULL, "geometry" BLOB NOT NULL, UNIQUE ("owner", "content_hash"));

CREATE INDEX "course_owner_created" ON "course"("owner", "created_at");

CREATE INDEX "course_shared_created" ON "course"("is_uploaded", "created_at");

CREATE INDEX "course_shared_scraps" ON "course"("is_uploaded", "scrap_count", "created_at");

CREATE INDEX "course_shared_distance" ON "course"("is_uploaded", "distance_m");

CREATE TABLE "scrap" ("course_id" INTEGER NOT NULL REFERENCES "course"("id") ON DELETE CASCADE, "user" TEXT NOT NULL, "created_at" DATETIME NOT NULL, PRIMARY KEY ("course_id", "user"));

CREATE INDEX "scrap_user" ON "scrap"("user", "course_id");

CREATE TRIGGER scrap_added AFTER INSERT ON scrap BEGIN
    UPDATE course SET scrap_count = scrap_count + 1 WHERE id = NEW.course_id;
END;

CREATE TRIGGER scrap_removed AFTER DELETE ON scrap BEGIN
    UPDATE course SET scrap_count = scrap_count - 1 WHERE id = OLD.course_id;
END;

CREATE TABLE course_search (
    course_id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    in_order BOOLEAN NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    departure TEXT NOT NULL
);

CREATE INDEX course_search_out_of_order ON course_search (created_ms, course_id)
    WHERE in_order = 0;

CREATE VIRTUAL TABLE course_search_token USING fts5(
    tokens, content='', detail=none, columnsize=0, tokenize='ascii'
);

PRAGMA user_version = 1;
