CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE IF NOT EXISTS "course" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "title" TEXT NOT NULL, "description" TEXT, "departure_region" TEXT, "departure_city" TEXT, "departure_town" TEXT, "departure_detail" TEXT, "departure_name" TEXT, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "is_uploaded" BOOLEAN NOT NULL DEFAULT 0, "uploaded_at" DATETIME, "scrap_count" INTEGER NOT NULL DEFAULT 0, "distance_m" DOUBLE NOT NULL, "point_count" INTEGER NOT NULL, "stats" TEXT NOT NULL, "geometry" BLOB NOT NULL, record_count INTEGER NOT NULL DEFAULT 0, image TEXT, UNIQUE ("owner", "content_hash"));
CREATE TABLE sqlite_sequence(name,seq);
CREATE INDEX "course_owner_created" ON "course"("owner", "created_at");
CREATE INDEX "course_shared_created" ON "course"("is_uploaded", "created_at");
CREATE INDEX "course_shared_scraps" ON "course"("is_uploaded", "scrap_count", "created_at");
CREATE INDEX "course_shared_distance" ON "course"("is_uploaded", "distance_m");
CREATE TABLE IF NOT EXISTS "scrap" ("course_id" INTEGER NOT NULL REFERENCES "course"("id") ON DELETE CASCADE, "user" TEXT NOT NULL, "created_at" DATETIME NOT NULL, PRIMARY KEY ("course_id", "user"));
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
)
/* course_search_token(tokens) */;
CREATE TABLE IF NOT EXISTS 'course_search_token_data'(id INTEGER PRIMARY KEY, block BLOB);
CREATE TABLE IF NOT EXISTS 'course_search_token_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS 'course_search_token_config'(k PRIMARY KEY, v) WITHOUT ROWID;
CREATE VIRTUAL TABLE course_bounds USING rtree(id, min_lat, max_lat, min_lon, max_lon)
/* course_bounds(id,min_lat,max_lat,min_lon,max_lon) */;
CREATE TABLE IF NOT EXISTS "course_bounds_rowid"(rowid INTEGER PRIMARY KEY,nodeno);
CREATE TABLE IF NOT EXISTS "course_bounds_node"(nodeno INTEGER PRIMARY KEY,data);
CREATE TABLE IF NOT EXISTS "course_bounds_parent"(nodeno INTEGER PRIMARY KEY,parentnode);
CREATE VIRTUAL TABLE course_start USING rtree(
    id, min_lat, max_lat, min_lon, max_lon, +start_lat, +start_lon, +finish_lat, +finish_lon, +path_m)
/* course_start(id,min_lat,max_lat,min_lon,max_lon,start_lat,start_lon,finish_lat,finish_lon,path_m) */;
CREATE TABLE IF NOT EXISTS "course_start_rowid"(rowid INTEGER PRIMARY KEY,nodeno,a0,a1,a2,a3,a4);
CREATE TABLE IF NOT EXISTS "course_start_node"(nodeno INTEGER PRIMARY KEY,data);
CREATE TABLE IF NOT EXISTS "course_start_parent"(nodeno INTEGER PRIMARY KEY,parentnode);
CREATE TRIGGER course_spatial_removed AFTER DELETE ON course BEGIN
    DELETE FROM course_bounds WHERE id = OLD.id;
    DELETE FROM course_start WHERE id = OLD.id;
END;
CREATE VIRTUAL TABLE course_piece USING rtree(id, min_lat, max_lat, min_lon, max_lon, +path)
/* course_piece(id,min_lat,max_lat,min_lon,max_lon,path) */;
CREATE TABLE IF NOT EXISTS "course_piece_rowid"(rowid INTEGER PRIMARY KEY,nodeno,a0);
CREATE TABLE IF NOT EXISTS "course_piece_node"(nodeno INTEGER PRIMARY KEY,data);
CREATE TABLE IF NOT EXISTS "course_piece_parent"(nodeno INTEGER PRIMARY KEY,parentnode);
CREATE TRIGGER course_piece_removed AFTER DELETE ON course BEGIN
    DELETE FROM course_piece WHERE id IN (
        WITH RECURSIVE piece(n) AS (
            SELECT 0
            UNION ALL
            SELECT n + 1 FROM piece
            WHERE EXISTS (SELECT 1 FROM course_piece WHERE id = OLD.id * 16777216 + n + 1)
        )
        SELECT OLD.id * 16777216 + n FROM piece
    );
END;
CREATE TABLE deleted_course (
    id INTEGER PRIMARY KEY,
    owner TEXT NOT NULL,
    distance_m DOUBLE NOT NULL,
    departure_region TEXT,
    departure_city TEXT,
    departure_town TEXT,
    departure_detail TEXT,
    departure_name TEXT,
    geometry BLOB NOT NULL,
    deleted_at DATETIME NOT NULL
, image TEXT);
CREATE TABLE IF NOT EXISTS "record" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "course_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL, "start_time" DATETIME, "distance_m" DOUBLE NOT NULL,
    "point_count" INTEGER NOT NULL, "device_timer_time_s" DOUBLE, "course_time_s" DOUBLE NOT NULL,
    "course_distance_m" DOUBLE NOT NULL, "match_coverage" DOUBLE NOT NULL, "stats" TEXT NOT NULL,
    "geometry" BLOB NOT NULL, reported BOOLEAN NOT NULL DEFAULT 0, reported_pace_s DOUBLE, public_course BOOLEAN NOT NULL DEFAULT 0, UNIQUE ("owner", "content_hash"));
CREATE INDEX "record_owner_start" ON "record"("owner", "start_time");
CREATE INDEX "record_course_owner_time" ON "record"("course_id", "owner", "course_time_s");
CREATE TRIGGER record_added AFTER INSERT ON record BEGIN
    UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
END;
CREATE TRIGGER record_removed AFTER DELETE ON record BEGIN
    UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
END;
CREATE TABLE runner (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    nickname TEXT UNIQUE,
    email TEXT,
    provider TEXT NOT NULL DEFAULT 'CLI',
    created_at DATETIME NOT NULL,
    modified_at DATETIME NOT NULL,
    drawn_count INTEGER NOT NULL DEFAULT 0,
    scrap_count INTEGER NOT NULL DEFAULT 0,
    upload_count INTEGER NOT NULL DEFAULT 0,
    run_count INTEGER NOT NULL DEFAULT 0,
    refresh_token_sha256 TEXT,
    withdrawn_at DATETIME
);
CREATE TABLE runner_identity (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    runner_id INTEGER NOT NULL REFERENCES runner(id) ON DELETE CASCADE,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX runner_identity_runner ON runner_identity (runner_id);
CREATE TABLE runner_stamp (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    runner_id INTEGER NOT NULL REFERENCES runner(id) ON DELETE CASCADE,
    stamp TEXT NOT NULL,
    earned_at DATETIME NOT NULL,
    UNIQUE (runner_id, stamp)
);
CREATE TABLE stamp_threshold (
    stamp TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    at_count INTEGER NOT NULL
);
CREATE UNIQUE INDEX course_image ON course (image) WHERE image IS NOT NULL;
CREATE VIEW runner_stamp_due AS
SELECT runner.id AS runner_id, t.stamp AS stamp FROM runner JOIN stamp_threshold t
WHERE runner.withdrawn_at IS NULL AND (
    (t.kind = 'c' AND runner.drawn_count >= t.at_count)
    OR (t.kind = 's' AND runner.scrap_count >= t.at_count)
    OR (t.kind = 'u' AND runner.upload_count >= t.at_count)
    OR (t.kind = 'r' AND runner.run_count >= t.at_count))
/* runner_stamp_due(runner_id,stamp) */;
CREATE TRIGGER runner_drew AFTER INSERT ON course BEGIN
    INSERT INTO runner (name, created_at, modified_at)
    SELECT NEW.owner, strftime('%Y-%m-%d %H:%M:%f', 'now'), strftime('%Y-%m-%d %H:%M:%f', 'now')
    WHERE NOT EXISTS (SELECT 1 FROM runner WHERE name = NEW.owner);
    UPDATE runner SET drawn_count = drawn_count + 1, upload_count = upload_count + (NEW.is_uploaded <> 0)
    WHERE name = NEW.owner;
    INSERT OR IGNORE INTO runner_stamp (runner_id, stamp, earned_at)
    SELECT d.runner_id, d.stamp, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM runner_stamp_due d
    JOIN runner ON runner.id = d.runner_id
    WHERE runner.name = NEW.owner AND (d.stamp LIKE 'c%' OR (NEW.is_uploaded AND d.stamp LIKE 'u%'))
    ORDER BY d.stamp;
END;
CREATE TRIGGER runner_uploaded AFTER UPDATE OF is_uploaded ON course
WHEN NEW.is_uploaded AND NOT OLD.is_uploaded BEGIN
    UPDATE runner SET upload_count = upload_count + 1 WHERE name = NEW.owner;
    INSERT OR IGNORE INTO runner_stamp (runner_id, stamp, earned_at)
    SELECT d.runner_id, d.stamp, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM runner_stamp_due d
    JOIN runner ON runner.id = d.runner_id WHERE runner.name = NEW.owner AND d.stamp LIKE 'u%';
END;
CREATE TRIGGER runner_scrapped AFTER INSERT ON scrap BEGIN
    INSERT INTO runner (name, created_at, modified_at)
    SELECT NEW."user", strftime('%Y-%m-%d %H:%M:%f', 'now'), strftime('%Y-%m-%d %H:%M:%f', 'now')
    WHERE NOT EXISTS (SELECT 1 FROM runner WHERE name = NEW."user");
    UPDATE runner SET scrap_count = scrap_count + 1 WHERE name = NEW."user";
    INSERT OR IGNORE INTO runner_stamp (runner_id, stamp, earned_at)
    SELECT d.runner_id, d.stamp, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM runner_stamp_due d
    JOIN runner ON runner.id = d.runner_id WHERE runner.name = NEW."user" AND d.stamp LIKE 's%';
END;
CREATE TRIGGER runner_ran AFTER INSERT ON record BEGIN
    INSERT INTO runner (name, created_at, modified_at)
    SELECT NEW.owner, strftime('%Y-%m-%d %H:%M:%f', 'now'), strftime('%Y-%m-%d %H:%M:%f', 'now')
    WHERE NOT EXISTS (SELECT 1 FROM runner WHERE name = NEW.owner);
    UPDATE runner SET run_count = run_count + 1 WHERE name = NEW.owner;
    INSERT OR IGNORE INTO runner_stamp (runner_id, stamp, earned_at)
    SELECT d.runner_id, d.stamp, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM runner_stamp_due d
    JOIN runner ON runner.id = d.runner_id WHERE runner.name = NEW.owner AND d.stamp LIKE 'r%';
END;
CREATE TRIGGER course_kept_for_records BEFORE DELETE ON course
WHEN EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) BEGIN
    INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city,
        departure_town, departure_detail, departure_name, geometry, deleted_at, image)
    VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
        OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry,
        strftime('%Y-%m-%d %H:%M:%f', 'now'), OLD.image);
END;
PRAGMA user_version = 6;
