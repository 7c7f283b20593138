import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { getS3 } from "../../../app/infrastructure/s3.server.ts";
import { E2E_BUCKET } from "../../setup/databases.ts";

/** Every key the e2e server has stored under a prefix (its own bucket, so no other run's files). */
export async function storedKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await getS3().send(new ListObjectsV2Command({ Bucket: E2E_BUCKET, Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}
