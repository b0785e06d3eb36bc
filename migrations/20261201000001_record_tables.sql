-- Issue 74: the tables of uploaded documents as typed records, so that a count with a
-- condition, a sum, an average, a largest or a smallest runs as SQL on any server, and its
-- evidence is the rows it touched. Written with the documents, in the same transaction.

CREATE TABLE record_tables (
    id        BIGSERIAL PRIMARY KEY,
    corpus    TEXT    NOT NULL REFERENCES corpora (name) ON DELETE CASCADE,
    -- The document's name (its file) and its context: the title and the headings above.
    document  TEXT    NOT NULL,
    context   TEXT    NOT NULL,
    -- The columns: header, name, kind (numbers of one measure, years, text), text values.
    columns   JSONB   NOT NULL,
    row_count INTEGER NOT NULL
);

CREATE INDEX record_tables_corpus ON record_tables (corpus, id);

CREATE TABLE record_rows (
    table_id  BIGINT  NOT NULL REFERENCES record_tables (id) ON DELETE CASCADE,
    row_index INTEGER NOT NULL,
    -- Where in the file the row is ("sheet 'Stations', row 7"), when the file has places.
    place     TEXT,
    PRIMARY KEY (table_id, row_index)
);

-- One row per cell: as written, and its number (a quantity in its base unit, or a year)
-- when its column holds numbers or years.
CREATE TABLE record_cells (
    table_id     BIGINT           NOT NULL REFERENCES record_tables (id) ON DELETE CASCADE,
    column_index INTEGER          NOT NULL,
    row_index    INTEGER          NOT NULL,
    text         TEXT             NOT NULL,
    number       DOUBLE PRECISION,
    PRIMARY KEY (table_id, column_index, row_index)
);

-- The corpus version whose tables are written: a corpus stored before this migration has
-- NULL, and the server writes its tables from its documents when it starts.
ALTER TABLE corpora ADD COLUMN records_version BIGINT;
