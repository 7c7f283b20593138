-- A user's records of one kind (the audit page's user and kind filters together) read in order from one index: with
-- the actor index alone, a kind the user never made meant reading every record they made to find none
-- (docs/PERFORMANCE.md, Audit trail).
CREATE INDEX "audit_log_actor_kind_idx" ON "audit_log" USING btree ("actor_id","kind","at","id");
