-- Feedback that teaches (issue 61): the operator reviews feedback, and an accepted correction
-- of a count answers its question first, on every server, until it is replaced or withdrawn.
-- A visitor's feedback alone never changes an answer: only a review row does.

-- One decision per feedback row, with who took it and when.
CREATE TABLE feedback_reviews (
    feedback_id  BIGINT PRIMARY KEY REFERENCES feedback (id) ON DELETE RESTRICT,
    decision     TEXT        NOT NULL CHECK (decision IN ('accepted', 'rejected')),
    reviewed_by  TEXT        NOT NULL CHECK (length(btrim(reviewed_by)) BETWEEN 1 AND 100),
    reviewed_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The counts accepted for a question (by its normalised wording). At most one is current; a
-- replaced or withdrawn one stays, with when and by whom.
CREATE TABLE verified_answers (
    id            BIGSERIAL PRIMARY KEY,
    question_key  TEXT             NOT NULL CHECK (length(question_key) > 0),
    question      TEXT             NOT NULL,
    count         DOUBLE PRECISION NOT NULL CHECK (count >= 0 AND count = trunc(count)),
    -- The accepted feedback and the answer it judged (whose snippets are the evidence).
    feedback_id   BIGINT           NOT NULL REFERENCES feedback (id) ON DELETE RESTRICT,
    answer_id     BIGINT           NOT NULL REFERENCES answers (id) ON DELETE RESTRICT,
    -- Tally's own count in that answer, when it gave one.
    tally_count   DOUBLE PRECISION,
    -- What the person wrote with the correction.
    note          TEXT,
    accepted_by   TEXT             NOT NULL,
    accepted_at   TIMESTAMPTZ      NOT NULL DEFAULT now(),
    withdrawn_by  TEXT,
    withdrawn_at  TIMESTAMPTZ,
    CHECK ((withdrawn_at IS NULL) = (withdrawn_by IS NULL))
);
CREATE UNIQUE INDEX verified_answers_current ON verified_answers (question_key)
    WHERE withdrawn_at IS NULL;
