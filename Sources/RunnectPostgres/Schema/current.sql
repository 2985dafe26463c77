--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: postgis; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;


--
-- Name: EXTENSION postgis; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION postgis IS 'PostGIS geometry and geography spatial types and functions';


--
-- Name: runnect_award_stamps(text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_award_stamps(names text[]) RETURNS void
    LANGUAGE sql
    SET search_path TO 'public', 'pg_temp'
    AS $$
    INSERT INTO runner_stamp (runner_id, stamp, earned_at)
    SELECT d.runner_id, d.stamp, now() FROM runner_stamp_due d JOIN runner n ON n.id = d.runner_id
    WHERE n.name = ANY(names)
      AND NOT EXISTS (SELECT 1 FROM runner_stamp s WHERE s.runner_id = d.runner_id AND s.stamp = d.stamp)
    ORDER BY d.runner_id, array_position(ARRAY['c', 's', 'u', 'r'], d.kind), d.stamp
    ON CONFLICT (runner_id, stamp) DO NOTHING
$$;


--
-- Name: runnect_count_records(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_count_records() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
    ELSE
        UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: runnect_count_scraps(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_count_scraps() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    counted bigint := CASE TG_OP WHEN 'INSERT' THEN NEW.course_id ELSE OLD.course_id END;
    change integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    UPDATE course SET scrap_count = scrap_count + change WHERE id = counted;
    UPDATE course_search SET scrap_count = scrap_count + change WHERE course_id = counted;
    RETURN NULL;
END $$;


--
-- Name: runnect_course_checked(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_course_checked() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF (runnect_stats_valid(NEW.stats, NEW.distance_m, NEW.point_count, NULL)) IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "course" violates check constraint "course_stats_valid"'
            USING ERRCODE = 'check_violation', TABLE = 'course', CONSTRAINT = 'course_stats_valid';
    END IF;
    IF (runnect_path_agrees(NEW.path, NEW.distance_m, NEW.point_count, NEW.start_lat, NEW.start_lon,
                    NEW.finish_lat, NEW.finish_lon, NEW.path_m)) IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "course" violates check constraint "course_path_agrees"'
            USING ERRCODE = 'check_violation', TABLE = 'course', CONSTRAINT = 'course_path_agrees';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: runnect_course_distances(bigint[], double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_course_distances(ids bigint[], lon double precision, lat double precision, radius double precision) RETURNS TABLE(id bigint, meters double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET max_parallel_workers_per_gather TO '0'
    SET jit TO 'off'
    AS $$
    SELECT near.course_id, near.meters
    FROM (SELECT p.course_id, min(ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography)) AS meters
          FROM (SELECT course_id, path FROM course_piece WHERE course_id = ANY(ids) OFFSET 0) p
          WHERE p.path && _ST_Expand(ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, radius)
          GROUP BY p.course_id) near
    JOIN course c ON c.id = near.course_id
    WHERE near.meters <= radius
      AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text
                                        ELSE current_setting('role') END)
$$;


--
-- Name: runnect_course_kept_for_records(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_course_kept_for_records() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) THEN
        INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city, departure_town,
            departure_detail, departure_name, geometry, image)
        VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
            OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry, OLD.image)
        ON CONFLICT (id) DO NOTHING;
    END IF;
    RETURN OLD;
END $$;


--
-- Name: runnect_course_starts(double precision[], double precision[], double precision[], double precision[], double precision, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_course_starts(west double precision[], south double precision[], east double precision[], north double precision[], finish_lat_min double precision, finish_lat_max double precision, finish_lon_min double precision, finish_lon_max double precision) RETURNS TABLE(id bigint, start_lat double precision, start_lon double precision, finish_lat double precision, finish_lon double precision, path_m double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET max_parallel_workers_per_gather TO '0'
    SET jit TO 'off'
    AS $$
    SELECT c.id, c.start_lat, c.start_lon, c.finish_lat, c.finish_lon, c.path_m
    FROM course c
    WHERE c.id IN (
            SELECT s.id FROM unnest(west, south, east, north) AS b(w, s, e, n)
            JOIN course s ON s.start_point && ST_MakeEnvelope(b.w, b.s, b.e, b.n, 4326))
      AND c.finish_lat BETWEEN finish_lat_min AND finish_lat_max
      AND c.finish_lon BETWEEN finish_lon_min AND finish_lon_max
      AND c.path_m IS NOT NULL
      AND (c.is_uploaded
           OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END
           OR EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" =
                  CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END))
$$;


--
-- Name: runnect_courses(text, bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_courses(viewer text, ids bigint[]) RETURNS TABLE(id bigint, owner text, title text, description text, departure_region text, departure_city text, departure_town text, departure_detail text, departure_name text, source_format text, content_hash text, stats text, created_at timestamp with time zone, is_uploaded boolean, uploaded_at timestamp with time zone, scrap_count integer, is_scrapped boolean)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN QUERY
    SELECT c.id, c.owner, c.title, c.description, c.departure_region, c.departure_city, c.departure_town,
           c.departure_detail, c.departure_name, c.source_format, c.content_hash, c.stats::text, c.created_at,
           c.is_uploaded, c.uploaded_at, c.scrap_count,
           EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = viewer)
    FROM course c WHERE c.id = ANY(ids);
END $$;


--
-- Name: runnect_courses_removed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_courses_removed() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    DELETE FROM course_piece p USING removed r WHERE p.course_id = r.id;
    RETURN NULL;
END $$;


--
-- Name: runnect_create_runner(text, text, text, text, text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_create_runner(runner_name text, sign_in_issuer text, sign_in_subject text, account_email text, account_provider text, made_at timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    made bigint;
    chosen text := runner_name;
    existing oid;
    is_runner boolean;
BEGIN
    IF runner_name IS NULL THEN
        LOOP
            made := nextval(pg_get_serial_sequence('runner', 'id'));
            chosen := 'r' || made;
            CONTINUE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = chosen)
                       OR EXISTS (SELECT 1 FROM runner WHERE name = chosen);
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN IN ROLE runnect_runner', chosen);
                EXIT;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                -- Made by another store's sign-in since the look: the next id.
            END;
        END LOOP;
        EXECUTE format('GRANT %I TO runnect_server', chosen);
        INSERT INTO runner (id, name, created_at, modified_at) VALUES (made, chosen, made_at, made_at);
    ELSE
        IF runner_name = '' OR octet_length(runner_name) > 63 OR lower(runner_name) LIKE 'pg\_%'
           OR lower(runner_name) IN ('public', 'none', 'current_user', 'current_role', 'session_user', 'user', 'all',
                                     'runnect_runner', 'runnect_server') THEN
            RAISE EXCEPTION '"%" cannot be a runner''s role name', runner_name USING ERRCODE = 'invalid_name';
        END IF;
        SELECT r.oid, EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                              WHERE m.member = r.oid AND g.rolname = 'runnect_runner')
        INTO existing, is_runner FROM pg_roles r WHERE r.rolname = runner_name;
        IF existing IS NULL THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN IN ROLE runnect_runner', runner_name);
                is_runner := true;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                -- Made by another session since the look: a runner's role, or refused below.
                SELECT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                               JOIN pg_roles r ON r.oid = m.member
                               WHERE r.rolname = runner_name AND g.rolname = 'runnect_runner')
                INTO is_runner;
            END;
            IF is_runner THEN
                EXECUTE format('GRANT %I TO runnect_server', runner_name);
            END IF;
        END IF;
        IF NOT is_runner THEN
            RAISE EXCEPTION 'role "%" exists and is not a runner of this store', runner_name
                USING ERRCODE = 'insufficient_privilege',
                      HINT = 'an administrator makes it one with `runnect db add-user NAME --existing`';
        END IF;
        INSERT INTO runner (name, created_at, modified_at) VALUES (runner_name, made_at, made_at)
        ON CONFLICT (name) DO NOTHING;
        SELECT id INTO made FROM runner WHERE name = runner_name;
    END IF;
    IF sign_in_issuer IS NOT NULL THEN
        INSERT INTO runner_identity (issuer, subject, runner_id) VALUES (sign_in_issuer, sign_in_subject, made);
        UPDATE runner SET provider = coalesce(account_provider, provider) WHERE id = made;
        UPDATE runner_account SET email = coalesce(account_email, email) WHERE runner_id = made;
    END IF;
    RETURN made;
END $$;


--
-- Name: runnect_enroll_caller(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_enroll_caller(made_at timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                        ELSE current_setting('role') END;
    made bigint;
BEGIN
    SELECT id INTO made FROM runner WHERE name = caller;
    IF made IS NOT NULL THEN RETURN made; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                   JOIN pg_roles r ON r.oid = m.member
                   WHERE g.rolname = 'runnect_runner' AND r.rolname = caller) THEN
        RETURN NULL;
    END IF;
    INSERT INTO runner (name, created_at, modified_at) VALUES (caller, made_at, made_at)
    ON CONFLICT (name) DO NOTHING;
    SELECT id INTO made FROM runner WHERE name = caller;
    RETURN made;
END $$;


--
-- Name: runnect_json_integer(json, bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_json_integer(value json, low bigint, high bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    SELECT CASE WHEN json_typeof(value) = 'number' AND value::text ~ '^-?[0-9]{1,18}$'
        THEN value::text::bigint BETWEEN low AND high ELSE false END
$_$;


--
-- Name: runnect_json_number(jsonb, numeric, numeric, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_json_number(value jsonb, low numeric, high numeric, nullable boolean) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE jsonb_typeof(value)
        WHEN 'number' THEN value::numeric BETWEEN low AND high
        WHEN 'null' THEN nullable
        ELSE value IS NULL AND nullable END
$$;


--
-- Name: runnect_json_timestamp(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_json_timestamp(value jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    SELECT CASE jsonb_typeof(value)
        WHEN 'string' THEN (value #>> '{}')
            ~ '^-?[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,3})?Z$'
        WHEN 'null' THEN true
        ELSE value IS NULL END
$_$;


--
-- Name: runnect_nearby_box(double precision, double precision, double precision, double precision, double precision, double precision[], text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_nearby_box(lon double precision, lat double precision, ring double precision, lat_min double precision, lat_max double precision, lon_ranges double precision[], scope text, up_to integer) RETURNS TABLE(id bigint, meters double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET max_parallel_workers_per_gather TO '0'
    SET jit TO 'off'
    AS $$
    SELECT near.course_id, near.meters
    FROM (SELECT p.course_id, min(ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography)) AS meters
          FROM course_piece p
          WHERE (ST_MakeEnvelope(p.west, p.south, p.east, p.north) && ST_MakeEnvelope(lon_ranges[1], lat_min, lon_ranges[2], lat_max)
       OR ST_MakeEnvelope(p.west, p.south, p.east, p.north) && ST_MakeEnvelope(lon_ranges[3], lat_min, lon_ranges[4], lat_max))
  AND p.path && _ST_Expand(ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, ring)
          GROUP BY p.course_id) near
    JOIN course c ON c.id = near.course_id
    WHERE near.meters <= ring AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
  AND CASE scope
        WHEN 'shared' THEN c.is_uploaded
        WHEN 'all' THEN true
        WHEN 'mine' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END
        WHEN 'mine-shared' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END AND c.is_uploaded
        WHEN 'mine-private' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END AND NOT c.is_uploaded
        WHEN 'scrapped' THEN EXISTS (
            SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
        ELSE false
      END
    ORDER BY near.meters, near.course_id
    LIMIT up_to
$$;


--
-- Name: runnect_path_agrees(public.geography, double precision, integer, double precision, double precision, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_path_agrees(path public.geography, distance_m double precision, point_count integer, start_lat double precision, start_lon double precision, finish_lat double precision, finish_lon double precision, path_m double precision) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    g geometry;
    lines integer;
    first geometry;
    last geometry;
    length double precision;
    joined double precision;
BEGIN
    IF path IS NULL THEN
        RETURN distance_m = 0 AND start_lat IS NULL AND start_lon IS NULL AND finish_lat IS NULL
            AND finish_lon IS NULL AND path_m IS NULL;
    END IF;
    IF start_lat IS NULL OR start_lon IS NULL OR finish_lat IS NULL OR finish_lon IS NULL OR path_m IS NULL
    THEN
        RETURN false;
    END IF;
    g := path::geometry;
    lines := ST_NumGeometries(g);
    IF ST_IsEmpty(g) OR ST_NPoints(g) > point_count::bigint + lines THEN RETURN false; END IF;
    length := ST_Length(path);
    IF NOT abs(length - distance_m) <= 1 THEN RETURN false; END IF;
    first := ST_StartPoint(ST_GeometryN(g, 1));
    last := ST_EndPoint(ST_GeometryN(g, lines));
    IF NOT (abs(ST_Y(first) - start_lat) <= 1e-9 AND abs(ST_X(first) - start_lon) <= 1e-9
            AND abs(ST_Y(last) - finish_lat) <= 1e-9 AND abs(ST_X(last) - finish_lon) <= 1e-9) THEN
        RETURN false;
    END IF;
    joined := length;
    FOR i IN 2..lines LOOP
        joined := joined + ST_Length(ST_MakeLine(ST_EndPoint(ST_GeometryN(g, i - 1)),
                                                 ST_StartPoint(ST_GeometryN(g, i)))::geography);
    END LOOP;
    RETURN abs(joined - path_m) <= 1;
END $$;


--
-- Name: runnect_pieces_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_pieces_added() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT FROM added a WHERE NOT EXISTS (SELECT FROM course c WHERE c.id = a.course_id)) THEN
        RAISE foreign_key_violation USING MESSAGE = 'a course piece names no course';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: runnect_preview_geometry(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_preview_geometry(for_course bigint) RETURNS bytea
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT geometry FROM course WHERE id = for_course
    UNION ALL SELECT geometry FROM deleted_course WHERE id = for_course
    LIMIT 1
$$;


--
-- Name: runnect_ranking(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_ranking(for_course bigint) RETURNS TABLE(runner_id bigint, record_id bigint, course_time_s double precision, course_distance_m double precision, reported boolean, reported_pace_s double precision, public_course boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT n.id, b.id, b.course_time_s, b.course_distance_m, b.reported, b.reported_pace_s, b.public_course
    FROM (SELECT DISTINCT ON (r.owner) r.id, r.owner, r.course_time_s, r.course_distance_m, r.reported,
                 r.reported_pace_s, r.public_course
          FROM record r WHERE r.course_id = for_course ORDER BY r.owner, r.course_time_s, r.id) b
    JOIN runner n ON n.name = b.owner AND n.withdrawn_at IS NULL
    ORDER BY b.course_time_s, b.id
$$;


--
-- Name: runnect_record_checked(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_record_checked() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF (CASE WHEN NEW.reported THEN runnect_stats_valid(NEW.stats, 0, NEW.point_count, NULL)
             ELSE runnect_stats_valid(NEW.stats, NEW.distance_m, NEW.point_count, NEW.course_time_s) END)
       IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "record" violates check constraint "record_stats_valid"'
            USING ERRCODE = 'check_violation', TABLE = 'record', CONSTRAINT = 'record_stats_valid';
    END IF;
    RETURN NEW;
END $$;


--
-- Name: runnect_runner_account_made(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runner_account_made() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO runner_account (runner_id) SELECT id FROM made;
    RETURN NULL;
END $$;


--
-- Name: runnect_runner_counts_folded(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runner_counts_folded() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    counted runner_count_pending[];
    names text[];
    c runner_count_pending;
BEGIN
    WITH folded AS (DELETE FROM runner_count_pending p RETURNING p AS count)
    SELECT array_agg(folded.count ORDER BY (folded.count).id) INTO counted FROM folded;
    IF counted IS NULL THEN RETURN NULL; END IF;
    names := ARRAY(SELECT DISTINCT f.name FROM unnest(counted) AS f ORDER BY f.name);
    INSERT INTO runner (name, created_at, modified_at)
    SELECT name, now(), now() FROM unnest(names) AS name ORDER BY name
    ON CONFLICT (name) DO NOTHING;
    PERFORM 1 FROM runner WHERE name = ANY(names) ORDER BY name FOR UPDATE;
    FOREACH c IN ARRAY counted LOOP
        UPDATE runner SET drawn_count = drawn_count + c.drawn, scrap_count = scrap_count + c.scraps,
                          upload_count = upload_count + c.uploads, run_count = run_count + c.runs
        WHERE name = c.name;
        PERFORM runnect_award_stamps(ARRAY[c.name]);
    END LOOP;
    RETURN NULL;
END $$;


--
-- Name: runnect_runner_uploaded(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runner_uploaded() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO runner_count_pending (name, uploads) VALUES (NEW.owner, 1);
    RETURN NULL;
END $$;


--
-- Name: runnect_runners_drew(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runners_drew() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO runner_count_pending (name, drawn, uploads)
    SELECT owner, count(*), count(*) FILTER (WHERE is_uploaded) FROM added GROUP BY owner ORDER BY owner;
    RETURN NULL;
END $$;


--
-- Name: runnect_runners_ran(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runners_ran() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO runner_count_pending (name, runs)
    SELECT owner, count(*) FROM added GROUP BY owner ORDER BY owner;
    RETURN NULL;
END $$;


--
-- Name: runnect_runners_scrapped(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_runners_scrapped() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO runner_count_pending (name, scraps)
    SELECT "user", count(*) FROM added GROUP BY "user" ORDER BY "user";
    RETURN NULL;
END $$;


--
-- Name: runnect_search_entry_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_search_entry_added() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    SELECT owner, is_uploaded, scrap_count, distance_m, round(extract(epoch FROM created_at) * 1000)::bigint
    INTO NEW.owner, NEW.is_uploaded, NEW.scrap_count, NEW.distance_m, NEW.created_ms
    FROM course WHERE id = NEW.course_id;
    RETURN NEW;
END $$;


--
-- Name: runnect_search_estimate(text[], bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_search_estimate(tokens text[], up_to bigint) RETURNS double precision
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET jit TO 'off'
    SET max_parallel_workers_per_gather TO '0'
    AS $_$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                        ELSE current_setting('role') END;
    found double precision;
BEGIN
    EXECUTE 'SELECT count(*)::double precision FROM (SELECT 1 FROM course_search s '
        || 'WHERE (s.is_uploaded OR s.owner = $3) AND s.tokens && $1 LIMIT $2 + 1) m'
        INTO found USING tokens, up_to, caller;
    RETURN found;
END $_$;


--
-- Name: runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer, bigint, bigint, integer, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_search_page(clauses text[], needles text[], initials text[], title_words integer, departure_words integer, shared_only boolean, sort text, walk integer, skip integer, up_to integer, after_id bigint DEFAULT NULL::bigint, after_created_ms bigint DEFAULT NULL::bigint, after_scrap_count integer DEFAULT NULL::integer, after_distance_m double precision DEFAULT NULL::double precision) RETURNS TABLE(id bigint, created_ms bigint, title text, description text, departure text, scrap_count integer, distance_m double precision, in_title integer, in_departure integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET enable_seqscan TO 'off'
    SET max_parallel_workers_per_gather TO '0'
    SET jit TO 'off'
    AS $_$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                   ELSE current_setting('role') END;
    -- The entries the caller may read (`owner` and `is_uploaded` mirror the course's).
    readable text := CASE WHEN shared_only THEN 's.is_uploaded' ELSE '(s.is_uploaded OR s.owner = $1)' END;
    matching text := 'true';
    after text := '';
    word_count integer := coalesce(array_length(needles, 1), 0);
    in_field text[];
    title_tests text[] := '{}';
    departure_tests text[] := '{}';
    -- Whether `strpos` decides every keyword (none mixed): then the rows are exact
    -- matches and their counts exact, and their texts are not sent.
    exact boolean := true;
    selected text;
    field text;
    ordered text;
    page text;
    clause text;
BEGIN
    IF coalesce(array_length(initials, 1), 0) <> word_count THEN
        RAISE EXCEPTION 'runnect_search_page: % needles, % initials', word_count,
            coalesce(array_length(initials, 1), 0);
    END IF;
    FOREACH clause IN ARRAY clauses LOOP
        IF clause !~ '^[0-9a-z |]*$' THEN
            RAISE EXCEPTION 'runnect_search_page: a clause holds more than tokens';
        END IF;
        matching := matching || ' AND (' || CASE WHEN position(' ' IN clause) = 0
            THEN 's.tokens && ' || quote_literal(string_to_array(clause, '|')::text) || '::text[]'
            ELSE (SELECT string_agg('s.tokens @> ' || quote_literal(string_to_array(list, ' ')::text)
                                    || '::text[]', ' OR ')
                  FROM unnest(string_to_array(clause, '|')) AS list) END || ')';
    END LOOP;
    -- Keyword i in each field: its needles there (the field names are this text's own).
    FOR i IN 1 .. word_count LOOP
        IF needles[i] IS NULL AND initials[i] IS NULL THEN
            RAISE EXCEPTION 'runnect_search_page: keyword % has no needle', i;
        END IF;
        exact := exact AND (needles[i] IS NULL OR initials[i] IS NULL);
        in_field := '{}';
        FOREACH field IN ARRAY ARRAY['title', 'description', 'departure'] LOOP
            in_field := in_field || concat_ws(' AND ',
                CASE WHEN needles[i] IS NOT NULL THEN format('strpos(s.%s, $2[%s]) > 0', field, i) END,
                CASE WHEN initials[i] IS NOT NULL
                     THEN format('strpos(s.%s_initials, $6[%s]) > 0', field, i) END);
        END LOOP;
        matching := matching || ' AND ((' || array_to_string(in_field, ') OR (') || '))';
        title_tests := title_tests || format('(%s)::int', in_field[1]);
        departure_tests := departure_tests || format('(%s)::int', in_field[3]);
    END LOOP;
    IF title_words > 0 AND word_count > 0 THEN
        matching := matching || format(' AND (%s) >= %s', array_to_string(title_tests, ' + '), title_words);
    END IF;
    IF departure_words > 0 AND word_count > 0 THEN
        matching := matching
            || format(' AND (%s) >= %s', array_to_string(departure_tests, ' + '), departure_words);
    END IF;
    selected := 'SELECT s.course_id, s.created_ms, ' || CASE WHEN exact
            THEN 'NULL::text, NULL::text, NULL::text' ELSE 's.title, s.description, s.departure' END
        || ', s.scrap_count, s.distance_m, ' || CASE WHEN word_count = 0 THEN '0, 0'
            ELSE array_to_string(title_tests, ' + ') || ', ' || array_to_string(departure_tests, ' + ') END
        || ' FROM (';
    IF after_id IS NOT NULL THEN
        IF after_created_ms IS NULL OR (sort = 'scrap' AND after_scrap_count IS NULL)
           OR (sort = 'distance' AND after_distance_m IS NULL) THEN
            RAISE EXCEPTION 'runnect_search_page: the keys of course % in % order are missing', after_id,
                quote_literal(sort);
        END IF;
        -- Rows past the one seen, in the order's own terms (a row comparison the order's
        -- index bounds its scan by).
        after := CASE sort
            WHEN 'scrap' THEN ' AND (s.scrap_count, s.created_ms, s.course_id) < ($9, $8, $7)'
            WHEN 'distance' THEN ' AND (s.distance_m, s.course_id) > ($10, $7)'
            ELSE ' AND (s.created_ms, s.course_id) < ($8, $7)' END;
    END IF;
    readable := readable || after;
    ordered := CASE sort
        WHEN 'date' THEN 's.created_ms DESC, s.course_id DESC'
        WHEN 'scrap' THEN 's.scrap_count DESC, s.created_ms DESC, s.course_id DESC'
        WHEN 'distance' THEN 's.distance_m, s.course_id'
    END;
    IF ordered IS NULL THEN
        RAISE EXCEPTION 'runnect_search_page: no sort %', quote_literal(sort);
    END IF;
    -- The entries in order, as `s`: the first `walk` readable ones through the order's
    -- index (the shared entries' own when shared_only), the matching ones among them; or
    -- every match the GIN index finds, sorted (`OFFSET 0` keeps the planner from
    -- walking the order's index instead).
    page := 'SELECT * FROM ' || CASE WHEN walk IS NULL
        THEN '(SELECT * FROM course_search s WHERE ' || readable || ' AND ' || matching || ' OFFSET 0) s'
        ELSE '(SELECT * FROM course_search s WHERE ' || readable || ' ORDER BY ' || ordered
             || ' LIMIT $5) s WHERE ' || matching END;
    page := selected || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4) s ORDER BY '
        || ordered;
    RETURN QUERY EXECUTE page USING caller, needles, skip, up_to, walk, initials, after_id, after_created_ms, after_scrap_count, after_distance_m;
END $_$;


--
-- Name: runnect_set_account(bigint, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_set_account(for_runner bigint, account_email text, account_provider text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    UPDATE runner_account SET email = coalesce(account_email, email) WHERE runner_id = for_runner;
    UPDATE runner SET provider = account_provider WHERE id = for_runner;
END $$;


--
-- Name: runnect_sharing_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_sharing_changed() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    UPDATE course_search SET is_uploaded = NEW.is_uploaded WHERE course_id = NEW.id;
    IF OLD.is_uploaded AND NOT NEW.is_uploaded THEN
        DELETE FROM scrap WHERE course_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: runnect_stats_valid(json, double precision, integer, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_stats_valid(stats json, distance_m double precision, point_count integer, course_time_s double precision) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    s jsonb := stats::jsonb;
    b jsonb;
    distance double precision;
    elapsed double precision;
    moving double precision;
    pace double precision;
BEGIN
    IF s IS NULL OR jsonb_typeof(s) <> 'object' THEN RETURN false; END IF;
    b := s -> 'bounds';
    IF NOT (
        (s -> 'v' IS NULL OR runnect_json_integer(stats -> 'v', 1, 1))
        AND runnect_json_number(s -> 'distance_m', 0, 1e12, false)
        AND runnect_json_number(s -> 'distance_3d_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'elapsed_time_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'moving_time_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'avg_pace_s_per_km', 0, 1e15, true)
        AND runnect_json_number(s -> 'moving_pace_s_per_km', 0, 1e15, true)
        AND runnect_json_number(s -> 'max_speed_m_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'elevation_gain_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'elevation_loss_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'min_elevation_m', -1e12, 1e12, true)
        AND runnect_json_number(s -> 'max_elevation_m', -1e12, 1e12, true)
        AND runnect_json_number(s -> 'avg_heart_rate_bpm', 0, 1e12, true)
        AND runnect_json_number(s -> 'max_heart_rate_bpm', 0, 1e12, true)
        AND runnect_json_number(s -> 'avg_cadence_spm', 0, 1e12, true)
        AND runnect_json_number(s -> 'max_cadence_spm', 0, 1e12, true)
        AND runnect_json_timestamp(s -> 'start_time')
        AND runnect_json_timestamp(s -> 'end_time')
    ) THEN
        RETURN false;
    END IF;
    IF jsonb_typeof(b) = 'object' THEN
        IF NOT (runnect_json_number(b -> 'min_lat', -90, 90, false)
                AND runnect_json_number(b -> 'max_lat', -90, 90, false)
                AND runnect_json_number(b -> 'min_lon', -180, 180, false)
                AND runnect_json_number(b -> 'max_lon', -180, 180, false)) THEN
            RETURN false;
        END IF;
        IF (b ->> 'min_lat')::numeric > (b ->> 'max_lat')::numeric THEN RETURN false; END IF;
    ELSIF b IS NOT NULL AND jsonb_typeof(b) <> 'null' THEN
        RETURN false;
    END IF;
    IF NOT (runnect_json_integer(stats -> 'points', 0, 2147483647)
            AND runnect_json_integer(stats -> 'segments', 0, 2147483647)) THEN
        RETURN false;
    END IF;
    distance := (s ->> 'distance_m')::double precision;
    elapsed := (s ->> 'elapsed_time_s')::double precision;
    moving := (s ->> 'moving_time_s')::double precision;
    IF moving IS NOT NULL AND (elapsed IS NULL OR moving > elapsed + 0.001) THEN RETURN false; END IF;
    pace := (s ->> 'avg_pace_s_per_km')::double precision;
    IF pace IS NOT NULL AND (elapsed IS NULL OR elapsed <= 0
            OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < elapsed - 0.0005) THEN
        RETURN false;
    END IF;
    pace := (s ->> 'moving_pace_s_per_km')::double precision;
    IF pace IS NOT NULL AND (moving IS NULL OR moving <= 0
            OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < moving - 0.0005) THEN
        RETURN false;
    END IF;
    -- The row: the same distance and points; a record's course time within its elapsed time
    -- (the elapsed time is at JSON resolution, a millisecond; the course time is not).
    IF NOT (abs(distance - runnect_stats_valid.distance_m) <= 0.0005
            AND (s ->> 'points')::numeric = runnect_stats_valid.point_count) THEN
        RETURN false;
    END IF;
    RETURN course_time_s IS NULL OR (elapsed IS NOT NULL AND course_time_s <= elapsed + 0.0005);
END $$;


--
-- Name: runnect_withdraw(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.runnect_withdraw(withdrawn timestamp with time zone) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                        ELSE current_setting('role') END;
    gone bigint;
BEGIN
    SELECT id INTO gone FROM runner WHERE name = caller;
    IF gone IS NULL THEN RETURN; END IF;
    DELETE FROM runner_identity WHERE runner_id = gone;
    UPDATE runner_account SET email = NULL, refresh_token_sha256 = NULL WHERE runner_id = gone;
    UPDATE runner SET nickname = NULL, withdrawn_at = withdrawn, modified_at = withdrawn WHERE id = gone;
    IF EXISTS (SELECT 1 FROM pg_roles r JOIN pg_auth_members m ON m.member = r.oid
               JOIN pg_roles g ON g.oid = m.roleid
               WHERE r.rolname = caller AND g.rolname = 'runnect_runner' AND r.rolcanlogin
                 AND NOT (r.rolsuper OR r.rolbypassrls OR r.rolcreaterole OR r.rolreplication)) THEN
        BEGIN
            EXECUTE format('ALTER ROLE %I NOLOGIN', caller);
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE WARNING 'role "%" keeps its login: the store''s administrator may not alter it', caller;
        END;
    END IF;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: course; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.course (
    id bigint NOT NULL,
    owner text DEFAULT CURRENT_USER NOT NULL,
    title text NOT NULL,
    description text,
    departure_region text,
    departure_city text,
    departure_town text,
    departure_detail text,
    departure_name text,
    source_format text NOT NULL,
    content_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    is_uploaded boolean DEFAULT false NOT NULL,
    uploaded_at timestamp with time zone,
    scrap_count integer DEFAULT 0 NOT NULL,
    record_count integer DEFAULT 0 NOT NULL,
    distance_m double precision NOT NULL,
    point_count integer NOT NULL,
    stats json NOT NULL,
    geometry bytea NOT NULL,
    path public.geography(MultiLineString,4326),
    start_lat double precision,
    start_lon double precision,
    finish_lat double precision,
    finish_lon double precision,
    path_m double precision,
    start_point public.geometry(Point,4326) GENERATED ALWAYS AS (public.st_setsrid(public.st_makepoint(start_lon, start_lat), 4326)) STORED,
    image text,
    CONSTRAINT course_content_hash_sha256 CHECK ((content_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT course_figures_in_range CHECK (((distance_m >= (0)::double precision) AND (distance_m <= ('1000000000000'::numeric)::double precision) AND (point_count >= 0) AND ((path_m IS NULL) OR ((path_m >= (0)::double precision) AND (path_m <= ('1000000000000'::numeric)::double precision))) AND ((start_lat IS NULL) OR (((start_lat >= ('-90'::integer)::double precision) AND (start_lat <= (90)::double precision)) AND ((start_lon >= ('-180'::integer)::double precision) AND (start_lon <= (180)::double precision)) AND ((finish_lat >= ('-90'::integer)::double precision) AND (finish_lat <= (90)::double precision)) AND ((finish_lon >= ('-180'::integer)::double precision) AND (finish_lon <= (180)::double precision)))))),
    CONSTRAINT course_source_format_known CHECK ((source_format = ANY (ARRAY['gpx-1.0'::text, 'gpx-1.1'::text, 'gpx'::text, 'points'::text, 'points-json'::text, 'geojson'::text, 'tcx'::text, 'fit'::text])))
);


--
-- Name: course_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.course ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.course_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: course_piece; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.course_piece (
    course_id bigint NOT NULL,
    piece integer NOT NULL,
    path public.geography(LineString,4326) NOT NULL,
    west double precision NOT NULL,
    south double precision NOT NULL,
    east double precision NOT NULL,
    north double precision NOT NULL
);


--
-- Name: course_search; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.course_search (
    course_id bigint NOT NULL,
    owner text DEFAULT CURRENT_USER NOT NULL,
    is_uploaded boolean DEFAULT false NOT NULL,
    created_ms bigint NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    departure text NOT NULL,
    tokens text[] NOT NULL COLLATE pg_catalog."C",
    scrap_count integer DEFAULT 0 NOT NULL,
    distance_m double precision DEFAULT 0 NOT NULL,
    title_initials text NOT NULL,
    description_initials text NOT NULL,
    departure_initials text NOT NULL
);
ALTER TABLE ONLY public.course_search ALTER COLUMN tokens SET STATISTICS 1000;


--
-- Name: deleted_course; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.deleted_course (
    id bigint NOT NULL,
    owner text NOT NULL,
    distance_m double precision NOT NULL,
    departure_region text,
    departure_city text,
    departure_town text,
    departure_detail text,
    departure_name text,
    geometry bytea NOT NULL,
    deleted_at timestamp with time zone DEFAULT now() NOT NULL,
    image text
);


--
-- Name: record; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.record (
    id bigint NOT NULL,
    owner text DEFAULT CURRENT_USER NOT NULL,
    course_id bigint NOT NULL,
    title text NOT NULL,
    source_format text NOT NULL,
    content_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    start_time timestamp with time zone,
    distance_m double precision NOT NULL,
    point_count integer NOT NULL,
    device_timer_time_s double precision,
    course_time_s double precision NOT NULL,
    course_distance_m double precision NOT NULL,
    match_coverage double precision NOT NULL,
    stats json NOT NULL,
    geometry bytea NOT NULL,
    reported boolean DEFAULT false NOT NULL,
    reported_pace_s double precision,
    public_course boolean DEFAULT false NOT NULL,
    CONSTRAINT record_content_hash_sha256 CHECK ((content_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT record_figures_in_range CHECK (((distance_m >= (0)::double precision) AND (distance_m <= ('1000000000000'::numeric)::double precision) AND (point_count >= 0) AND (course_time_s >= (0)::double precision) AND (course_time_s <= ('1000000000000'::numeric)::double precision) AND (course_distance_m >= (0)::double precision) AND (course_distance_m <= ('1000000000000'::numeric)::double precision) AND (match_coverage >= (0)::double precision) AND (match_coverage <= (1)::double precision) AND ((device_timer_time_s IS NULL) OR ((device_timer_time_s >= (0)::double precision) AND (device_timer_time_s <= ('1000000000000'::numeric)::double precision))))),
    CONSTRAINT record_reported_run CHECK (
CASE
    WHEN reported THEN ((point_count = 0) AND (match_coverage = (0)::double precision) AND ((reported_pace_s IS NULL) OR ((reported_pace_s >= (0)::double precision) AND (reported_pace_s <= ('1000000000000'::numeric)::double precision))))
    ELSE (reported_pace_s IS NULL)
END),
    CONSTRAINT record_source_format_known CHECK (
CASE
    WHEN reported THEN (source_format = 'app'::text)
    ELSE (source_format = ANY (ARRAY['gpx-1.0'::text, 'gpx-1.1'::text, 'gpx'::text, 'points'::text, 'points-json'::text, 'geojson'::text, 'tcx'::text, 'fit'::text]))
END)
);


--
-- Name: record_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.record ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.record_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: runner; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runner (
    id bigint NOT NULL,
    name text NOT NULL,
    nickname text,
    provider text DEFAULT 'CLI'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    modified_at timestamp with time zone DEFAULT now() NOT NULL,
    drawn_count integer DEFAULT 0 NOT NULL,
    scrap_count integer DEFAULT 0 NOT NULL,
    upload_count integer DEFAULT 0 NOT NULL,
    run_count integer DEFAULT 0 NOT NULL,
    withdrawn_at timestamp with time zone
);


--
-- Name: runner_account; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runner_account (
    runner_id bigint NOT NULL,
    email text,
    refresh_token_sha256 text
);


--
-- Name: runner_count_pending; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runner_count_pending (
    id bigint NOT NULL,
    name text NOT NULL,
    drawn integer DEFAULT 0 NOT NULL,
    scraps integer DEFAULT 0 NOT NULL,
    uploads integer DEFAULT 0 NOT NULL,
    runs integer DEFAULT 0 NOT NULL
);


--
-- Name: runner_count_pending_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.runner_count_pending ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.runner_count_pending_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: runner_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.runner ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.runner_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: runner_identity; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runner_identity (
    issuer text NOT NULL,
    subject text NOT NULL,
    runner_id bigint NOT NULL
);


--
-- Name: runner_stamp; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runner_stamp (
    id bigint NOT NULL,
    runner_id bigint NOT NULL,
    stamp text NOT NULL,
    earned_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: stamp_threshold; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stamp_threshold (
    stamp text NOT NULL,
    kind text NOT NULL,
    at_count integer NOT NULL
);


--
-- Name: runner_stamp_due; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.runner_stamp_due AS
 SELECT runner.id AS runner_id,
    t.stamp,
    t.kind
   FROM (public.runner
     CROSS JOIN public.stamp_threshold t)
  WHERE ((runner.withdrawn_at IS NULL) AND (((t.kind = 'c'::text) AND (runner.drawn_count >= t.at_count)) OR ((t.kind = 's'::text) AND (runner.scrap_count >= t.at_count)) OR ((t.kind = 'u'::text) AND (runner.upload_count >= t.at_count)) OR ((t.kind = 'r'::text) AND (runner.run_count >= t.at_count))));


--
-- Name: runner_stamp_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.runner_stamp ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.runner_stamp_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: schema_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_version (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: scrap; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scrap (
    course_id bigint NOT NULL,
    "user" text DEFAULT CURRENT_USER NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: course course_owner_content_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course
    ADD CONSTRAINT course_owner_content_hash_key UNIQUE (owner, content_hash);


--
-- Name: course_piece course_piece_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_piece
    ADD CONSTRAINT course_piece_pkey PRIMARY KEY (course_id, piece);


--
-- Name: course course_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course
    ADD CONSTRAINT course_pkey PRIMARY KEY (id);


--
-- Name: course_search course_search_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_search
    ADD CONSTRAINT course_search_pkey PRIMARY KEY (course_id);


--
-- Name: deleted_course deleted_course_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deleted_course
    ADD CONSTRAINT deleted_course_pkey PRIMARY KEY (id);


--
-- Name: record record_owner_content_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record
    ADD CONSTRAINT record_owner_content_hash_key UNIQUE (owner, content_hash);


--
-- Name: record record_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record
    ADD CONSTRAINT record_pkey PRIMARY KEY (id);


--
-- Name: runner_account runner_account_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_account
    ADD CONSTRAINT runner_account_pkey PRIMARY KEY (runner_id);


--
-- Name: runner_count_pending runner_count_pending_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_count_pending
    ADD CONSTRAINT runner_count_pending_pkey PRIMARY KEY (id);


--
-- Name: runner_identity runner_identity_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_identity
    ADD CONSTRAINT runner_identity_pkey PRIMARY KEY (issuer, subject);


--
-- Name: runner runner_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner
    ADD CONSTRAINT runner_name_key UNIQUE (name);


--
-- Name: runner runner_nickname_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner
    ADD CONSTRAINT runner_nickname_key UNIQUE (nickname);


--
-- Name: runner runner_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner
    ADD CONSTRAINT runner_pkey PRIMARY KEY (id);


--
-- Name: runner_stamp runner_stamp_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_stamp
    ADD CONSTRAINT runner_stamp_pkey PRIMARY KEY (id);


--
-- Name: runner_stamp runner_stamp_runner_id_stamp_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_stamp
    ADD CONSTRAINT runner_stamp_runner_id_stamp_key UNIQUE (runner_id, stamp);


--
-- Name: schema_version schema_version_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_version
    ADD CONSTRAINT schema_version_pkey PRIMARY KEY (version);


--
-- Name: scrap scrap_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scrap
    ADD CONSTRAINT scrap_pkey PRIMARY KEY (course_id, "user");


--
-- Name: stamp_threshold stamp_threshold_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stamp_threshold
    ADD CONSTRAINT stamp_threshold_pkey PRIMARY KEY (stamp);


--
-- Name: course_image; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX course_image ON public.course USING btree (image) WHERE (image IS NOT NULL);


--
-- Name: course_owner_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_owner_created ON public.course USING btree (owner, created_at, id);


--
-- Name: course_piece_box; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_piece_box ON public.course_piece USING gist (public.st_makeenvelope(west, south, east, north));


--
-- Name: course_search_distance; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_distance ON public.course_search USING btree (distance_m, course_id) INCLUDE (owner, is_uploaded, created_ms, scrap_count, title, description, departure, title_initials, description_initials, departure_initials);


--
-- Name: course_search_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_newest ON public.course_search USING btree (created_ms, course_id) INCLUDE (owner, is_uploaded, scrap_count, distance_m, title, description, departure, title_initials, description_initials, departure_initials);


--
-- Name: course_search_scraps; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_scraps ON public.course_search USING btree (scrap_count, created_ms, course_id) INCLUDE (owner, is_uploaded, distance_m, title, description, departure, title_initials, description_initials, departure_initials);


--
-- Name: course_search_shared_distance; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_shared_distance ON public.course_search USING btree (distance_m, course_id) INCLUDE (created_ms, scrap_count, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;


--
-- Name: course_search_shared_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_shared_newest ON public.course_search USING btree (created_ms, course_id) INCLUDE (scrap_count, distance_m, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;


--
-- Name: course_search_shared_scraps; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_shared_scraps ON public.course_search USING btree (scrap_count, created_ms, course_id) INCLUDE (distance_m, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;


--
-- Name: course_search_tokens; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_search_tokens ON public.course_search USING gin (tokens);


--
-- Name: course_shared_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_shared_created ON public.course USING btree (is_uploaded, created_at, id);


--
-- Name: course_shared_distance; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_shared_distance ON public.course USING btree (is_uploaded, distance_m, id);


--
-- Name: course_shared_scraps; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_shared_scraps ON public.course USING btree (is_uploaded, scrap_count, created_at, id);


--
-- Name: course_start; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX course_start ON public.course USING gist (start_point);


--
-- Name: record_course_owner_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_course_owner_time ON public.record USING btree (course_id, owner, course_time_s);


--
-- Name: record_owner_start; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_owner_start ON public.record USING btree (owner, start_time);


--
-- Name: runner_identity_runner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX runner_identity_runner ON public.runner_identity USING btree (runner_id);


--
-- Name: scrap_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scrap_user ON public.scrap USING btree ("user", course_id);


--
-- Name: course course_checked; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_checked BEFORE INSERT OR UPDATE OF distance_m, finish_lat, finish_lon, path, path_m, point_count, start_lat, start_lon, stats ON public.course FOR EACH ROW EXECUTE FUNCTION public.runnect_course_checked();


--
-- Name: course course_drawn; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_drawn AFTER INSERT ON public.course REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_runners_drew();


--
-- Name: course course_kept_for_records; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_kept_for_records BEFORE DELETE ON public.course FOR EACH ROW EXECUTE FUNCTION public.runnect_course_kept_for_records();


--
-- Name: course_piece course_piece_added; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_piece_added AFTER INSERT ON public.course_piece REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_pieces_added();


--
-- Name: course course_removed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_removed AFTER DELETE ON public.course REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_courses_removed();


--
-- Name: course_search course_search_entry; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_search_entry BEFORE INSERT ON public.course_search FOR EACH ROW EXECUTE FUNCTION public.runnect_search_entry_added();


--
-- Name: course course_sharing_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_sharing_changed AFTER UPDATE OF is_uploaded ON public.course FOR EACH ROW WHEN ((old.is_uploaded IS DISTINCT FROM new.is_uploaded)) EXECUTE FUNCTION public.runnect_sharing_changed();


--
-- Name: course course_uploaded; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER course_uploaded AFTER UPDATE OF is_uploaded ON public.course FOR EACH ROW WHEN ((new.is_uploaded AND (NOT old.is_uploaded))) EXECUTE FUNCTION public.runnect_runner_uploaded();


--
-- Name: record record_checked; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER record_checked BEFORE INSERT OR UPDATE OF course_time_s, distance_m, point_count, reported, stats ON public.record FOR EACH ROW EXECUTE FUNCTION public.runnect_record_checked();


--
-- Name: record record_counted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER record_counted AFTER INSERT OR DELETE ON public.record FOR EACH ROW EXECUTE FUNCTION public.runnect_count_records();


--
-- Name: record record_counted_for_runner; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER record_counted_for_runner AFTER INSERT ON public.record REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_runners_ran();


--
-- Name: runner runner_account_made; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER runner_account_made AFTER INSERT ON public.runner REFERENCING NEW TABLE AS made FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_runner_account_made();


--
-- Name: runner_count_pending runner_counts_folded; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER runner_counts_folded AFTER INSERT ON public.runner_count_pending DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.runnect_runner_counts_folded();


--
-- Name: scrap scrap_counted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER scrap_counted AFTER INSERT OR DELETE ON public.scrap FOR EACH ROW EXECUTE FUNCTION public.runnect_count_scraps();


--
-- Name: scrap scrap_counted_for_runner; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER scrap_counted_for_runner AFTER INSERT ON public.scrap REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.runnect_runners_scrapped();


--
-- Name: course_search course_search_course_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.course_search
    ADD CONSTRAINT course_search_course_id_fkey FOREIGN KEY (course_id) REFERENCES public.course(id) ON DELETE CASCADE;


--
-- Name: runner_account runner_account_runner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_account
    ADD CONSTRAINT runner_account_runner_id_fkey FOREIGN KEY (runner_id) REFERENCES public.runner(id) ON DELETE CASCADE;


--
-- Name: runner_identity runner_identity_runner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_identity
    ADD CONSTRAINT runner_identity_runner_id_fkey FOREIGN KEY (runner_id) REFERENCES public.runner(id) ON DELETE CASCADE;


--
-- Name: runner_stamp runner_stamp_runner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runner_stamp
    ADD CONSTRAINT runner_stamp_runner_id_fkey FOREIGN KEY (runner_id) REFERENCES public.runner(id) ON DELETE CASCADE;


--
-- Name: scrap scrap_course_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scrap
    ADD CONSTRAINT scrap_course_id_fkey FOREIGN KEY (course_id) REFERENCES public.course(id) ON DELETE CASCADE;


--
-- Name: course; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.course ENABLE ROW LEVEL SECURITY;

--
-- Name: course course_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY course_add ON public.course FOR INSERT WITH CHECK ((owner = CURRENT_USER));


--
-- Name: course course_change; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY course_change ON public.course FOR UPDATE USING ((owner = CURRENT_USER)) WITH CHECK ((owner = CURRENT_USER));


--
-- Name: course_piece; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.course_piece ENABLE ROW LEVEL SECURITY;

--
-- Name: course_piece course_piece_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY course_piece_add ON public.course_piece FOR INSERT WITH CHECK ((EXISTS ( SELECT 1
   FROM public.course c
  WHERE ((c.id = course_piece.course_id) AND (c.owner = CURRENT_USER)))));


--
-- Name: course course_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY course_read ON public.course FOR SELECT USING ((is_uploaded OR (owner = CURRENT_USER)));


--
-- Name: course course_remove; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY course_remove ON public.course FOR DELETE USING ((owner = CURRENT_USER));


--
-- Name: course_search; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.course_search ENABLE ROW LEVEL SECURITY;

--
-- Name: deleted_course; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.deleted_course ENABLE ROW LEVEL SECURITY;

--
-- Name: deleted_course deleted_course_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY deleted_course_read ON public.deleted_course FOR SELECT USING (((owner = CURRENT_USER) OR (EXISTS ( SELECT 1
   FROM public.record r
  WHERE ((r.course_id = deleted_course.id) AND (r.owner = CURRENT_USER))))));


--
-- Name: record; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.record ENABLE ROW LEVEL SECURITY;

--
-- Name: record record_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY record_add ON public.record FOR INSERT WITH CHECK (((owner = CURRENT_USER) AND (EXISTS ( SELECT 1
   FROM public.course
  WHERE (course.id = record.course_id)))));


--
-- Name: record record_change; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY record_change ON public.record FOR UPDATE USING ((owner = CURRENT_USER)) WITH CHECK ((owner = CURRENT_USER));


--
-- Name: record record_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY record_read ON public.record FOR SELECT USING ((owner = CURRENT_USER));


--
-- Name: record record_remove; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY record_remove ON public.record FOR DELETE USING ((owner = CURRENT_USER));


--
-- Name: runner; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.runner ENABLE ROW LEVEL SECURITY;

--
-- Name: runner_account; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.runner_account ENABLE ROW LEVEL SECURITY;

--
-- Name: runner_account runner_account_own; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_account_own ON public.runner_account FOR SELECT TO runnect_runner USING ((runner_id IN ( SELECT runner.id
   FROM public.runner
  WHERE (runner.name = CURRENT_USER))));


--
-- Name: runner_account runner_account_serve; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_account_serve ON public.runner_account TO runnect_server USING (true) WITH CHECK (true);


--
-- Name: runner runner_change; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_change ON public.runner FOR UPDATE USING ((name = CURRENT_USER)) WITH CHECK ((name = CURRENT_USER));


--
-- Name: runner_count_pending; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.runner_count_pending ENABLE ROW LEVEL SECURITY;

--
-- Name: runner_identity; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.runner_identity ENABLE ROW LEVEL SECURITY;

--
-- Name: runner_identity runner_identity_serve; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_identity_serve ON public.runner_identity FOR SELECT TO runnect_server USING (true);


--
-- Name: runner runner_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_read ON public.runner FOR SELECT USING (true);


--
-- Name: runner_stamp; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.runner_stamp ENABLE ROW LEVEL SECURITY;

--
-- Name: runner_stamp runner_stamp_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY runner_stamp_read ON public.runner_stamp FOR SELECT USING (true);


--
-- Name: scrap; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.scrap ENABLE ROW LEVEL SECURITY;

--
-- Name: scrap scrap_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY scrap_add ON public.scrap FOR INSERT WITH CHECK ((("user" = CURRENT_USER) AND (EXISTS ( SELECT 1
   FROM public.course
  WHERE ((course.id = scrap.course_id) AND course.is_uploaded)))));


--
-- Name: scrap scrap_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY scrap_read ON public.scrap FOR SELECT USING (("user" = CURRENT_USER));


--
-- Name: scrap scrap_remove; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY scrap_remove ON public.scrap FOR DELETE USING (("user" = CURRENT_USER));


--
-- Name: course_search search_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY search_add ON public.course_search FOR INSERT WITH CHECK ((EXISTS ( SELECT 1
   FROM public.course
  WHERE ((course.id = course_search.course_id) AND (course.owner = CURRENT_USER)))));


--
-- Name: course_search search_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY search_read ON public.course_search FOR SELECT USING ((is_uploaded OR (owner = CURRENT_USER)));


--
-- Name: course_search search_remove; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY search_remove ON public.course_search FOR DELETE USING ((owner = CURRENT_USER));


--
-- Name: FUNCTION runnect_award_stamps(names text[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_award_stamps(names text[]) FROM PUBLIC;


--
-- Name: FUNCTION runnect_count_records(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_count_records() FROM PUBLIC;


--
-- Name: FUNCTION runnect_count_scraps(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_count_scraps() FROM PUBLIC;


--
-- Name: FUNCTION runnect_course_checked(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_course_checked() FROM PUBLIC;


--
-- Name: FUNCTION runnect_course_distances(ids bigint[], lon double precision, lat double precision, radius double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_course_distances(ids bigint[], lon double precision, lat double precision, radius double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_course_distances(ids bigint[], lon double precision, lat double precision, radius double precision) TO runnect_runner;


--
-- Name: FUNCTION runnect_course_kept_for_records(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_course_kept_for_records() FROM PUBLIC;


--
-- Name: FUNCTION runnect_course_starts(west double precision[], south double precision[], east double precision[], north double precision[], finish_lat_min double precision, finish_lat_max double precision, finish_lon_min double precision, finish_lon_max double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_course_starts(west double precision[], south double precision[], east double precision[], north double precision[], finish_lat_min double precision, finish_lat_max double precision, finish_lon_min double precision, finish_lon_max double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_course_starts(west double precision[], south double precision[], east double precision[], north double precision[], finish_lat_min double precision, finish_lat_max double precision, finish_lon_min double precision, finish_lon_max double precision) TO runnect_runner;


--
-- Name: FUNCTION runnect_courses(viewer text, ids bigint[]); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_courses(viewer text, ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_courses(viewer text, ids bigint[]) TO runnect_runner;


--
-- Name: FUNCTION runnect_create_runner(runner_name text, sign_in_issuer text, sign_in_subject text, account_email text, account_provider text, made_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_create_runner(runner_name text, sign_in_issuer text, sign_in_subject text, account_email text, account_provider text, made_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_create_runner(runner_name text, sign_in_issuer text, sign_in_subject text, account_email text, account_provider text, made_at timestamp with time zone) TO runnect_server;


--
-- Name: FUNCTION runnect_enroll_caller(made_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_enroll_caller(made_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_enroll_caller(made_at timestamp with time zone) TO runnect_runner;


--
-- Name: FUNCTION runnect_nearby_box(lon double precision, lat double precision, ring double precision, lat_min double precision, lat_max double precision, lon_ranges double precision[], scope text, up_to integer); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_nearby_box(lon double precision, lat double precision, ring double precision, lat_min double precision, lat_max double precision, lon_ranges double precision[], scope text, up_to integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_nearby_box(lon double precision, lat double precision, ring double precision, lat_min double precision, lat_max double precision, lon_ranges double precision[], scope text, up_to integer) TO runnect_runner;


--
-- Name: FUNCTION runnect_preview_geometry(for_course bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_preview_geometry(for_course bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_preview_geometry(for_course bigint) TO runnect_server;


--
-- Name: FUNCTION runnect_ranking(for_course bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_ranking(for_course bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_ranking(for_course bigint) TO runnect_server;


--
-- Name: FUNCTION runnect_record_checked(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_record_checked() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runner_account_made(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runner_account_made() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runner_counts_folded(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runner_counts_folded() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runner_uploaded(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runner_uploaded() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runners_drew(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runners_drew() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runners_ran(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runners_ran() FROM PUBLIC;


--
-- Name: FUNCTION runnect_runners_scrapped(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_runners_scrapped() FROM PUBLIC;


--
-- Name: FUNCTION runnect_search_entry_added(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_search_entry_added() FROM PUBLIC;


--
-- Name: FUNCTION runnect_search_estimate(tokens text[], up_to bigint); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_search_estimate(tokens text[], up_to bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_search_estimate(tokens text[], up_to bigint) TO runnect_runner;


--
-- Name: FUNCTION runnect_search_page(clauses text[], needles text[], initials text[], title_words integer, departure_words integer, shared_only boolean, sort text, walk integer, skip integer, up_to integer, after_id bigint, after_created_ms bigint, after_scrap_count integer, after_distance_m double precision); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_search_page(clauses text[], needles text[], initials text[], title_words integer, departure_words integer, shared_only boolean, sort text, walk integer, skip integer, up_to integer, after_id bigint, after_created_ms bigint, after_scrap_count integer, after_distance_m double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_search_page(clauses text[], needles text[], initials text[], title_words integer, departure_words integer, shared_only boolean, sort text, walk integer, skip integer, up_to integer, after_id bigint, after_created_ms bigint, after_scrap_count integer, after_distance_m double precision) TO runnect_runner;


--
-- Name: FUNCTION runnect_set_account(for_runner bigint, account_email text, account_provider text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_set_account(for_runner bigint, account_email text, account_provider text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_set_account(for_runner bigint, account_email text, account_provider text) TO runnect_server;


--
-- Name: FUNCTION runnect_sharing_changed(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_sharing_changed() FROM PUBLIC;


--
-- Name: FUNCTION runnect_withdraw(withdrawn timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.runnect_withdraw(withdrawn timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.runnect_withdraw(withdrawn timestamp with time zone) TO runnect_runner;


--
-- Name: TABLE course; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,DELETE ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.owner; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(owner) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.title; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(title),UPDATE(title) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.description; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(description),UPDATE(description) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.departure_region; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_region),UPDATE(departure_region) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.departure_city; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_city),UPDATE(departure_city) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.departure_town; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_town),UPDATE(departure_town) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.departure_detail; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_detail),UPDATE(departure_detail) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.departure_name; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_name),UPDATE(departure_name) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.source_format; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(source_format) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.content_hash; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(content_hash) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.created_at; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(created_at) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.is_uploaded; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(is_uploaded) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.uploaded_at; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(uploaded_at) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.distance_m; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(distance_m) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.point_count; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(point_count) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.stats; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(stats) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.geometry; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(geometry) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.path; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(path) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.start_lat; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(start_lat) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.start_lon; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(start_lon) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.finish_lat; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(finish_lat) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.finish_lon; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(finish_lon) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.path_m; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(path_m) ON TABLE public.course TO runnect_runner;


--
-- Name: COLUMN course.image; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(image) ON TABLE public.course TO runnect_runner;


--
-- Name: TABLE course_piece; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT ON TABLE public.course_piece TO runnect_runner;


--
-- Name: TABLE course_search; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,DELETE ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.course_id; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(course_id) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.created_ms; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(created_ms) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.title; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(title) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.description; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(description) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.departure; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.tokens; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(tokens) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.title_initials; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(title_initials) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.description_initials; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(description_initials) ON TABLE public.course_search TO runnect_runner;


--
-- Name: COLUMN course_search.departure_initials; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(departure_initials) ON TABLE public.course_search TO runnect_runner;


--
-- Name: TABLE deleted_course; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.deleted_course TO runnect_runner;


--
-- Name: TABLE record; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,DELETE ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.owner; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(owner) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.course_id; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(course_id) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.title; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(title),UPDATE(title) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.source_format; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(source_format) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.content_hash; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(content_hash) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.created_at; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(created_at) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.start_time; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(start_time) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.distance_m; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(distance_m) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.point_count; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(point_count) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.device_timer_time_s; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(device_timer_time_s) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.course_time_s; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(course_time_s) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.course_distance_m; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(course_distance_m) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.match_coverage; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(match_coverage) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.stats; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(stats) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.geometry; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(geometry) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.reported; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(reported) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.reported_pace_s; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(reported_pace_s) ON TABLE public.record TO runnect_runner;


--
-- Name: COLUMN record.public_course; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(public_course) ON TABLE public.record TO runnect_runner;


--
-- Name: TABLE runner; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.runner TO runnect_runner;
GRANT SELECT ON TABLE public.runner TO runnect_server;


--
-- Name: COLUMN runner.nickname; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(nickname) ON TABLE public.runner TO runnect_runner;


--
-- Name: COLUMN runner.modified_at; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(modified_at) ON TABLE public.runner TO runnect_runner;


--
-- Name: TABLE runner_account; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.runner_account TO runnect_server;


--
-- Name: COLUMN runner_account.runner_id; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(runner_id) ON TABLE public.runner_account TO runnect_runner;


--
-- Name: COLUMN runner_account.email; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(email) ON TABLE public.runner_account TO runnect_runner;
GRANT UPDATE(email) ON TABLE public.runner_account TO runnect_server;


--
-- Name: COLUMN runner_account.refresh_token_sha256; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(refresh_token_sha256) ON TABLE public.runner_account TO runnect_server;


--
-- Name: TABLE runner_identity; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.runner_identity TO runnect_server;


--
-- Name: TABLE runner_stamp; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.runner_stamp TO runnect_runner;
GRANT SELECT ON TABLE public.runner_stamp TO runnect_server;


--
-- Name: TABLE stamp_threshold; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.stamp_threshold TO runnect_runner;
GRANT SELECT ON TABLE public.stamp_threshold TO runnect_server;


--
-- Name: TABLE schema_version; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.schema_version TO runnect_runner;
GRANT SELECT ON TABLE public.schema_version TO runnect_server;


--
-- Name: TABLE scrap; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,DELETE ON TABLE public.scrap TO runnect_runner;


--
-- Name: COLUMN scrap.course_id; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(course_id) ON TABLE public.scrap TO runnect_runner;


--
-- Name: COLUMN scrap."user"; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT("user") ON TABLE public.scrap TO runnect_runner;


--
-- Name: COLUMN scrap.created_at; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(created_at) ON TABLE public.scrap TO runnect_runner;


--
-- PostgreSQL database dump complete
--


