-- Snippets fetched from a web search engine for a question, kept so that an answer can be shown
-- again exactly and a repeated question within the reuse time does not search again.

CREATE TABLE snippet_sets (
    id           BIGSERIAL PRIMARY KEY,
    -- The question as asked, and its normalised form (lower case, single spaces) for reuse.
    question     TEXT        NOT NULL,
    question_key TEXT        NOT NULL,
    -- The search provider: 'searxng' or 'brave'.
    source       TEXT        NOT NULL CHECK (source IN ('searxng', 'brave')),
    fetched_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX snippet_sets_reuse ON snippet_sets (question_key, source, fetched_at DESC);

CREATE TABLE web_snippets (
    set_id     BIGINT  NOT NULL REFERENCES snippet_sets (id) ON DELETE CASCADE,
    -- 1 for the search engine's first result.
    rank       INTEGER NOT NULL CHECK (rank >= 1),
    url        TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    -- The publication date as the search engine gives it (ISO date or relative, "2 days ago").
    published  TEXT,
    PRIMARY KEY (set_id, rank)
);
