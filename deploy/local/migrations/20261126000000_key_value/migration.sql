-- The embedded topology's durable key-value buckets (in-process messaging): one row per (bucket, key), the value
-- as the JSON text the bucket holds. Today only the mailer's sent-job ids (vellum_mail_sent).
CREATE TABLE "key_value" (
    "bucket" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "key_value_pkey" PRIMARY KEY ("bucket", "key")
);
