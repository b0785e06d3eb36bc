-- A job whose corpus is deleted while it is indexed ends as 'cancelled' (it used to read
-- 'done' with part of its documents, issue 57).
ALTER TABLE ingest_jobs DROP CONSTRAINT ingest_jobs_state_check;
ALTER TABLE ingest_jobs ADD CONSTRAINT ingest_jobs_state_check
    CHECK (state IN ('running', 'done', 'failed', 'cancelled'));
