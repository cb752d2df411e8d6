// Objects in one S3 bucket (AWS, or any S3-protocol server: MinIO, Ceph, R2, ...), shared by every
// instance of the app. Uploads go up as they arrive: lib-storage cuts the stream into 5 MiB parts and
// sends at most QUEUE_SIZE of them at once, reading no further while they are on the way, so an
// upload holds a few parts in memory whatever the file's size. S3 makes an object visible only once
// its PUT (or the multipart upload's completion) succeeds: the object exists complete or not at all.
import { finished, Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertValidKey, type ByteRange, isValidKey, ObjectNotFoundError, type ObjectStorage, type StoredObject } from "./storage.ts";

/** The smallest part S3 accepts; a file up to this size goes up in one PUT. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts of one upload in flight at once: about PART_SIZE × (QUEUE_SIZE + 1) of memory per upload. */
const QUEUE_SIZE = 2;
/** How long a refused upload waits for requests already sent before it stops waiting and aborts. */
const SETTLE_MS = 30_000;
const CHECK_TIMEOUT_MS = 3_000;

export type S3Settings = {
  bucket: string;
  /** Unset: AWS, by region. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_* variables, instance or task role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

export function createS3Client(settings: S3Settings): S3Client {
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // One pool of kept-alive connections for the process; the SDK's default of 50 sockets would
    // queue concurrent uploads and downloads behind each other.
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: 120_000,
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  };
  if (settings.endpoint) {
    config.endpoint = settings.endpoint;
    // The SDK's default integrity checksums (CRC32 trailers) are refused by many S3-protocol
    // servers; the app keeps its own SHA-256 of every document.
    config.requestChecksumCalculation = "WHEN_REQUIRED";
    config.responseChecksumValidation = "WHEN_REQUIRED";
  }
  if (settings.accessKeyId && settings.secretAccessKey) {
    config.credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
  }
  return new S3Client(config);
}

export class S3Storage implements ObjectStorage {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  async put(key: string, body: Readable): Promise<void> {
    assertValidKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    const uploaded = upload.done();
    try {
      // The SDK may never settle when its body fails without yielding again: watch the body too.
      await Promise.race([uploaded, failureOf(body)]);
    } catch (err) {
      body.destroy();
      await settle(uploaded, upload);
      // A one-part upload's PUT may have gone through before the failure was known.
      await this.delete(key);
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    try {
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range }));
      if (!(Body instanceof Readable)) throw new Error(`S3 answered ${key} without a readable body`);
      return Body;
    } catch (err) {
      if ((err as Error).name === "NoSuchKey") throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(): AsyncIterable<StoredObject> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken }));
      for (const { Key, LastModified } of page.Contents ?? []) {
        if (Key && LastModified && isValidKey(Key)) yield { key: Key, lastModified: LastModified };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  }
}

/** Rejects when the stream fails or is destroyed before its end; never settles otherwise. */
function failureOf(body: Readable): Promise<never> {
  return new Promise((_resolve, reject) => {
    finished(body, { writable: false }, (err) => {
      if (err) reject(err);
    });
  });
}

/**
 * Waits until the upload has stopped sending: with its body destroyed, lib-storage finishes the
 * requests already under way, aborts a multipart upload, then rejects. Should it not, abort() ends
 * the wait (and stops it from sending more parts).
 */
async function settle(uploaded: Promise<unknown>, upload: Upload): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      void upload.abort();
      resolve();
    }, SETTLE_MS);
  });
  await Promise.race([
    uploaded.then(
      () => undefined,
      () => undefined,
    ),
    waited,
  ]);
  clearTimeout(timer);
}
