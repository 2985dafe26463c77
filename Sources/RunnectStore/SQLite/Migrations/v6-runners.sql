-- SQLite schema version 6 (v6-runners), as shipped: never edit this file; add a new version.
--
-- Version 6: runners as the Runnect app knows them (`runnect serve`). A `runner` row stands for
-- each name that owns, scraps or records anything: its numeric id (the app's `userId`), an
-- optional nickname (unique; the name is shown while there is none), the app account's e-mail
-- and provider, the hash of its one valid refresh token, and the counters of what it did, from
-- which triggers award the app's stamps (`runner_stamp`, in the order earned): a course
-- inserted (drawn; one inserted already shared, as a copy's, is an upload too), a course
-- shared, a scrap, a record. A name never loses its row: a withdrawn runner keeps it, with
-- `withdrawn_at` set and nothing personal. Sign-in identities (`runner_identity`: an OpenID
-- Connect issuer and subject, or Kakao's) point at runners; e-mail never identifies anyone. A
-- course may carry the map image the app uploaded (`image`: its file name), kept for the
-- records of a deleted course too. A record may be one the app reported (a time, no track),
-- and may have been posted through the course's shared page (`public_course`).

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

-- The app's thresholds (its StampType): drawn courses c, scraps s, uploads u, runs r.
CREATE TABLE stamp_threshold (
    stamp TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    at_count INTEGER NOT NULL
);

INSERT INTO stamp_threshold (stamp, kind, at_count) VALUES
    ('c1', 'c', 1), ('c2', 'c', 10), ('c3', 'c', 30),
    ('s1', 's', 1), ('s2', 's', 20), ('s3', 's', 40),
    ('u1', 'u', 1), ('u2', 'u', 10), ('u3', 'u', 30),
    ('r1', 'r', 1), ('r2', 'r', 15), ('r3', 'r', 30);

ALTER TABLE course ADD COLUMN image TEXT;

CREATE UNIQUE INDEX course_image ON course (image) WHERE image IS NOT NULL;

ALTER TABLE deleted_course ADD COLUMN image TEXT;

ALTER TABLE record ADD COLUMN reported BOOLEAN NOT NULL DEFAULT 0;

ALTER TABLE record ADD COLUMN reported_pace_s DOUBLE;

ALTER TABLE record ADD COLUMN public_course BOOLEAN NOT NULL DEFAULT 0;

-- Every name already in the store becomes a runner, its counters what it holds now.
INSERT INTO runner (name, created_at, modified_at)
SELECT name, strftime('%Y-%m-%d %H:%M:%f', 'now'), strftime('%Y-%m-%d %H:%M:%f', 'now') FROM (
    SELECT owner AS name FROM course
    UNION SELECT owner FROM deleted_course
    UNION SELECT owner FROM record
    UNION SELECT "user" FROM scrap
) ORDER BY name;

UPDATE runner SET
    drawn_count = (SELECT count(*) FROM course WHERE owner = runner.name),
    upload_count = (SELECT count(*) FROM course WHERE owner = runner.name AND is_uploaded),
    scrap_count = (SELECT count(*) FROM scrap WHERE "user" = runner.name),
    run_count = (SELECT count(*) FROM record WHERE owner = runner.name);

-- Awards every stamp a runner's counters reach; run after each counter changes.
CREATE VIEW runner_stamp_due AS
SELECT runner.id AS runner_id, t.stamp AS stamp FROM runner JOIN stamp_threshold t
WHERE runner.withdrawn_at IS NULL AND (
    (t.kind = 'c' AND runner.drawn_count >= t.at_count)
    OR (t.kind = 's' AND runner.scrap_count >= t.at_count)
    OR (t.kind = 'u' AND runner.upload_count >= t.at_count)
    OR (t.kind = 'r' AND runner.run_count >= t.at_count));

INSERT OR IGNORE INTO runner_stamp (runner_id, stamp, earned_at)
SELECT runner_id, stamp, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM runner_stamp_due ORDER BY runner_id, stamp;

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

DROP TRIGGER course_kept_for_records;

CREATE TRIGGER course_kept_for_records BEFORE DELETE ON course
WHEN EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) BEGIN
    INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city,
        departure_town, departure_detail, departure_name, geometry, deleted_at, image)
    VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
        OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry,
        strftime('%Y-%m-%d %H:%M:%f', 'now'), OLD.image);
END;

PRAGMA user_version = 6;
