-- A corpus whose indexing failed, was cut, or took its server down (issue 84): the version that
-- failed and why. Servers do not index that version again on their own (a stored poison pill
-- would take each of them down on every start); a new upload or replacement raises the version,
-- and restarting the corpus's failed job clears the mark.
ALTER TABLE corpora ADD COLUMN failed_version BIGINT, ADD COLUMN failed_reason TEXT;
