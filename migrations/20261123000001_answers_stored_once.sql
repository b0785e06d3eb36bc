-- Answers are stored once per (question, mode, settings, engine and corpus version): the key
-- says which. A question row is one visitor's asking of one answer (NULL visitor: API clients
-- without the visitor cookie); asking again only refreshes its time. Storage then grows with
-- the questions people ask, not with the requests they send.

ALTER TABLE answers ADD COLUMN answer_key TEXT;
CREATE UNIQUE INDEX answers_key ON answers (answer_key);

ALTER TABLE questions ADD COLUMN answer_id BIGINT REFERENCES answers (id) ON DELETE RESTRICT;
ALTER TABLE questions ADD COLUMN visitor UUID;
ALTER TABLE questions ADD COLUMN last_asked_at TIMESTAMPTZ NOT NULL DEFAULT now();

-- The link moves from the answer to the question (answers were 1:1 with questions so far).
UPDATE questions q SET answer_id = a.id FROM answers a WHERE a.question_id = q.id;
UPDATE questions SET last_asked_at = asked_at;
ALTER TABLE answers DROP COLUMN question_id;

CREATE UNIQUE INDEX questions_answer_visitor ON questions (answer_id, visitor) NULLS NOT DISTINCT;
CREATE INDEX questions_visitor_last_asked ON questions (visitor, last_asked_at DESC);
DROP INDEX IF EXISTS questions_asked_at;
CREATE INDEX questions_last_asked ON questions (last_asked_at DESC);
CREATE INDEX answers_created_at ON answers (created_at);

-- Corrected counts are whole numbers of 0 or more (older rows are left as they are).
ALTER TABLE feedback ADD CONSTRAINT feedback_corrected_count
    CHECK (corrected_value >= 0 AND corrected_value = trunc(corrected_value)) NOT VALID;
