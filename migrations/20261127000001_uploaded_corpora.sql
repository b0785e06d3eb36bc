-- Uploaded corpora: PostgreSQL holds their documents and every server's indexes are derived
-- from them, so that servers behind one load balancer offer the same corpora (issue 32).

CREATE TABLE corpora (
    name         TEXT PRIMARY KEY,
    -- Raised by every change; a server's indexes say which version of the corpus they hold.
    version      BIGINT      NOT NULL DEFAULT 1,
    -- The version of the last replacement (or of the creation): a server holding an older one
    -- indexes the corpus again from scratch, a newer one only adds what came after it.
    base_version BIGINT      NOT NULL DEFAULT 1,
    -- Set when deleted, so that a server that was down drops its copy when it comes back.
    deleted_at   TIMESTAMPTZ,
    changed_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE corpus_documents (
    corpus        TEXT   NOT NULL REFERENCES corpora (name) ON DELETE CASCADE,
    -- Upload order, for reading a corpus in batches.
    seq           BIGSERIAL,
    -- The corpus version that added it.
    added_version BIGINT NOT NULL,
    id            TEXT   NOT NULL,
    source        TEXT   NOT NULL,
    entity        TEXT,
    text          TEXT   NOT NULL,
    PRIMARY KEY (corpus, seq)
);

-- A document already in the corpus (the same text) is not added twice.
CREATE UNIQUE INDEX corpus_documents_once ON corpus_documents (corpus, md5(text));
CREATE INDEX corpus_documents_added ON corpus_documents (corpus, added_version, seq);

-- The servers that index corpora, seen every few seconds: a job whose server is no longer
-- seen is marked failed.
CREATE TABLE corpus_servers (
    id      TEXT PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ingest_jobs (
    id         UUID PRIMARY KEY,
    corpus     TEXT        NOT NULL,
    files      TEXT[]      NOT NULL,
    -- 'add' keeps what the corpus held, 'replace' drops it first.
    mode       TEXT        NOT NULL CHECK (mode IN ('add', 'replace')),
    -- The corpus version this upload made: the job is done when its server holds it.
    version    BIGINT      NOT NULL,
    -- Documents of the upload already in the corpus, not added again.
    duplicates INTEGER     NOT NULL DEFAULT 0,
    state      TEXT        NOT NULL CHECK (state IN ('running', 'done', 'failed')),
    -- The engine's IngestProgress as JSON.
    progress   JSONB       NOT NULL,
    error      TEXT,
    -- The server that indexes it and reports its progress.
    server     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX ingest_jobs_running ON ingest_jobs (server, corpus) WHERE state = 'running';
