-- Value questions ("how tall is the Eiffel Tower") are stored like the other kinds, and feedback
-- may judge one observation of a value answer (its sentence id as part_ref).

ALTER TABLE questions DROP CONSTRAINT questions_kind_check;
ALTER TABLE questions ADD CONSTRAINT questions_kind_check
    CHECK (kind IN ('count', 'value', 'quantity', 'search'));

ALTER TABLE feedback DROP CONSTRAINT feedback_part_check;
ALTER TABLE feedback ADD CONSTRAINT feedback_part_check
    CHECK (part IN ('answer', 'cnp', 'instance', 'search_result', 'observation', 'general'));
