CREATE TABLE "runner_languages" (
	"language" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
