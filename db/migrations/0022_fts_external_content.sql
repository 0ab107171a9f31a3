-- Issue 31, ADR 289: the search index without its own copy of the text. requests_fts becomes an
-- external-content FTS5 table over the view requests_search_text (requests' searched columns plus
-- the derived phone_digits), kept by triggers; it stores only the index (terms, positions, sizes),
-- the text stays in requests alone. Same columns, tokenizer and prefixes as 0017, so matches and
-- bm25 ranks are unchanged (NULL indexes like ''). A delete must name the indexed values: the
-- triggers pass the old row's, computed by the same expression as the view.
DROP TRIGGER IF EXISTS `requests_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `requests_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `requests_fts_au`;
--> statement-breakpoint
-- secure_delete (set on every connection) zeroes the freed pages of the old copy.
DROP TABLE IF EXISTS `requests_fts`;
--> statement-breakpoint
CREATE VIEW `requests_search_text` AS
  SELECT id, name, email, phone,
    replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '') AS phone_digits,
    company_description, description, summary, voice_transcript
  FROM `requests`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `requests_fts` USING fts5(
  name, email, phone, phone_digits, company_description, description, summary, voice_transcript,
  content = 'requests_search_text',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
--> statement-breakpoint
-- Erasure leaves no trace: a deleted row's terms are removed from the index at once.
INSERT INTO requests_fts(requests_fts, rank) VALUES('secure-delete', 1);
--> statement-breakpoint
INSERT INTO requests_fts(requests_fts) VALUES('rebuild');
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ai` AFTER INSERT ON `requests` BEGIN
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, new.summary, new.voice_transcript);
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ad` AFTER DELETE ON `requests` BEGIN
  INSERT INTO requests_fts(requests_fts, rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES ('delete', old.id, old.name, old.email, old.phone,
    replace(replace(replace(replace(replace(replace(replace(old.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    old.company_description, old.description, old.summary, old.voice_transcript);
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_au` AFTER UPDATE OF name, email, phone, company_description, description, summary, voice_transcript ON `requests` BEGIN
  INSERT INTO requests_fts(requests_fts, rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES ('delete', old.id, old.name, old.email, old.phone,
    replace(replace(replace(replace(replace(replace(replace(old.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    old.company_description, old.description, old.summary, old.voice_transcript);
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, new.summary, new.voice_transcript);
END;
