-- Issue 73: a value answer is corrected with a value and its unit ("£95", "330 m"), and an
-- accepted value becomes the question's verified answer on every server, as a count does.
-- A unit is a unit-table id; without one the value is a count (a whole number of 0 or more).
ALTER TABLE feedback ADD COLUMN corrected_unit TEXT
    CHECK (corrected_unit IS NULL OR length(corrected_unit) BETWEEN 1 AND 100);
ALTER TABLE feedback DROP CONSTRAINT feedback_corrected_count;
ALTER TABLE feedback ADD CONSTRAINT feedback_corrected_count
    CHECK (corrected_unit IS NOT NULL OR (corrected_value >= 0 AND corrected_value = trunc(corrected_value)))
    NOT VALID;

ALTER TABLE verified_answers ADD COLUMN unit TEXT
    CHECK (unit IS NULL OR length(unit) BETWEEN 1 AND 100);
ALTER TABLE verified_answers DROP CONSTRAINT verified_answers_count_check;
ALTER TABLE verified_answers ADD CONSTRAINT verified_answers_count_check
    CHECK (unit IS NOT NULL OR (count >= 0 AND count = trunc(count)));
