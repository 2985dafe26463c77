-- PostgreSQL schema version 20 (v20-runner-roles-raced), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 20: a new runner's role is made even when another store of the same cluster makes a
-- role of that name at the same moment.
--
-- Roles belong to the cluster, not to a database: two stores of one cluster (a club's and its
-- test copy, or the tests' own databases) each count their runners from 1. Version 18 chose
-- `r<id>` where no role had the name yet, then made it; a sign-in to the other store choosing
-- the same name in between made its own first, and this one's `CREATE ROLE` failed ("duplicate
-- key value violates unique constraint pg_authid_rolname_index": a CI run saw it). Now a name
-- taken between the look and the `CREATE ROLE` is skipped like any other, and a named runner
-- whose role another session has just made is that role's runner if the role is a runner.
-- The signature is version 18's, so its owner and grants (`runnect_server` alone) are kept.
CREATE OR REPLACE FUNCTION runnect_create_runner(runner_name text, sign_in_issuer text, sign_in_subject text,
                                      account_email text, account_provider text, made_at timestamptz)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
