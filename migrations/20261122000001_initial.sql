-- Tally's store: questions asked, the answers given, people's feedback on them, and user-study
-- sessions. Rows are never deleted by the application; foreign keys RESTRICT so that removing a
-- question or answer can never silently drop the feedback attached to it.

CREATE TABLE questions (
    id          BIGSERIAL PRIMARY KEY,
    text        TEXT        NOT NULL CHECK (length(btrim(text)) > 0),
    kind        TEXT        NOT NULL CHECK (kind IN ('count', 'quantity', 'search')),
    settings    JSONB       NOT NULL DEFAULT '{}'::jsonb,
    asked_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX questions_asked_at ON questions (asked_at DESC);

CREATE TABLE answers (
    id              BIGSERIAL PRIMARY KEY,
    question_id     BIGINT           NOT NULL REFERENCES questions (id) ON DELETE RESTRICT,
    answer          JSONB            NOT NULL,
    latency_ms      DOUBLE PRECISION NOT NULL CHECK (latency_ms >= 0),
    engine_version  TEXT             NOT NULL,
    created_at      TIMESTAMPTZ      NOT NULL DEFAULT now()
);
CREATE INDEX answers_question ON answers (question_id);

-- Feedback on a whole answer, one of its parts (a CNP, an instance, a search result), or on the
-- app in general (no answer).
CREATE TABLE feedback (
    id               BIGSERIAL PRIMARY KEY,
    answer_id        BIGINT REFERENCES answers (id) ON DELETE RESTRICT,
    part             TEXT NOT NULL CHECK (part IN ('answer', 'cnp', 'instance', 'search_result', 'general')),
    -- Which CNP / instance / result inside the answer (its id in the answer JSON).
    part_ref         TEXT,
    verdict          TEXT NOT NULL CHECK (verdict IN ('correct', 'wrong', 'relevant', 'not_relevant', 'moved')),
    corrected_value  DOUBLE PRECISION,
    -- For a CNP moved to another group: synonyms, subgroups or incomparables.
    moved_to         TEXT CHECK (moved_to IN ('synonyms', 'subgroups', 'incomparables')),
    comment          TEXT CHECK (length(comment) <= 4000),
    -- Chosen by the client per submission: a re-sent form does not create a second row.
    client_token     UUID UNIQUE,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (answer_id IS NOT NULL OR part = 'general'),
    CHECK (part_ref IS NOT NULL OR part IN ('answer', 'general'))
);
CREATE INDEX feedback_answer ON feedback (answer_id);

CREATE TABLE study_sessions (
    id               UUID PRIMARY KEY,
    study            TEXT        NOT NULL,
    meta             JSONB       NOT NULL DEFAULT '{}'::jsonb,
    started_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    completed_at     TIMESTAMPTZ,
    completion_code  TEXT UNIQUE
);

CREATE TABLE study_responses (
    id           BIGSERIAL PRIMARY KEY,
    session_id   UUID        NOT NULL REFERENCES study_sessions (id) ON DELETE RESTRICT,
    task_index   INTEGER     NOT NULL CHECK (task_index >= 0),
    task_kind    TEXT        NOT NULL CHECK (task_kind IN ('preference', 'judgement')),
    task         JSONB       NOT NULL,
    response     JSONB       NOT NULL,
    answered_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (session_id, task_index)
);
