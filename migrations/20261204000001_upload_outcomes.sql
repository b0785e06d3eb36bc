-- Each file of an upload: the documents read from it, or why it was refused (issue 87: a mixed
-- upload stores the files it can read and lists the others).
ALTER TABLE ingest_jobs ADD COLUMN outcomes jsonb NOT NULL DEFAULT '[]'::jsonb;
