-- Full-text index over the searchable request fields (name, email, phone, company, description, summary).
-- phone_digits holds only the digits so "0123 456" finds "0123456" and vice versa.
CREATE VIRTUAL TABLE `requests_fts` USING fts5(
  name, email, phone, phone_digits, company_description, description, summary,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ai` AFTER INSERT ON `requests` BEGIN
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, coalesce(new.summary, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ad` AFTER DELETE ON `requests` BEGIN
  DELETE FROM requests_fts WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_au` AFTER UPDATE OF name, email, phone, company_description, description, summary ON `requests` BEGIN
  DELETE FROM requests_fts WHERE rowid = old.id;
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, coalesce(new.summary, ''));
END;
