ALTER TABLE "import_rows" DROP CONSTRAINT "import_rows_import_id_imports_id_fk";
