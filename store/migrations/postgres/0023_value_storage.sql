-- PostgreSQL's twin of ../0023_value_storage.sql: how the two large values
-- of a document are stored. An upload is a PDF or an image, already
-- compressed: trying to compress it again (pglz, the default) costs 2 ms on
-- a 77 KB statement and saves nothing, so its bytes are kept as they come.
-- A result is JSON, which compresses five times over: lz4 does that in a
-- fifth of pglz's time (a 50-page result: 5.5 ms to about 1). PostgreSQL
-- before 14 has no choice of compression, and a server built without lz4
-- refuses it: both keep pglz.
ALTER TABLE documents ALTER COLUMN content SET STORAGE EXTERNAL;
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
        EXECUTE 'ALTER TABLE documents ALTER COLUMN result SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE documents ALTER COLUMN edited SET COMPRESSION lz4';
    END IF;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END $$;
