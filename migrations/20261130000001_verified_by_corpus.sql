-- Issue 70: a verified answer holds for its question over the corpus it was judged on (an
-- accepted count for Mars was shown over an uploaded corpus that says nothing of Mars), and its
-- note is the operator's, written on Accept, never a visitor's comment copied to the public page.

-- The corpus the judged answer read (`all`: every corpus), as the count settings name it.
ALTER TABLE verified_answers ADD COLUMN corpus TEXT NOT NULL DEFAULT 'all';
UPDATE verified_answers v SET corpus = COALESCE(
    (SELECT q.settings->'settings'->'count'->>'corpus' FROM questions q
     WHERE q.answer_id = v.answer_id ORDER BY q.id LIMIT 1), 'all');

-- Notes copied from visitors' comments go: no operator wrote them.
UPDATE verified_answers SET note = NULL;

-- One current verified answer per question and corpus.
DROP INDEX verified_answers_current;
CREATE UNIQUE INDEX verified_answers_current ON verified_answers (question_key, corpus)
    WHERE withdrawn_at IS NULL;
