-- Who left a piece of feedback (the visitor cookie), so that a visitor's history counts only
-- their own feedback on answers other visitors share. Rows from before are nobody's.
ALTER TABLE feedback ADD COLUMN visitor UUID;
CREATE INDEX feedback_visitor ON feedback (visitor);
