import { createHash } from 'node:crypto';
import contentDisposition from 'content-disposition';
import type { FastifyRequest } from 'fastify';
import { invalidParam, RestError } from '../../../domain/errors.ts';
import { REASONS, tooLarge } from '../../../domain/reasons.ts';

/** An upload as the request carried it, after the checks of 110-media §2.2 #3–#6. */
export interface UploadRequest {
  bytes: Buffer;
  fileName: string;
  title?: string;
  altText?: string;
}

const TEXT_LIMITS = { title: 200, alt_text: 1000 } as const;

export const fileTooBig = () => new RestError(413, 'rest_upload_file_too_big');
const noData = () => new RestError(400, 'rest_upload_no_data');

/** The file part and fields of a multipart body: the first `file` part only, other parts drained. */
async function readMultipart(request: FastifyRequest, maxBytes: number): Promise<{ file?: Buffer; fileName: string; fields: Record<string, unknown> }> {
  const fields: Record<string, unknown> = {};
  let file: Buffer | undefined;
  let fileName = '';
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 10, fields: 20 } })) {
    if (part.type === 'file') {
      if (part.fieldname === 'file' && file === undefined) {
        file = await part.toBuffer();
        fileName = part.filename;
      } else {
        part.file.resume();
      }
    } else if (part.fieldname === 'title' || part.fieldname === 'alt_text') {
      fields[part.fieldname] = part.value;
    }
  }
  return { file, fileName, fields };
}

/** The name from `Content-Disposition` (quoted, unquoted or RFC 6266 `filename*`), with R's codes. */
function dispositionFileName(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new RestError(400, 'rest_upload_no_content_disposition');
  let name: unknown;
  try {
    name = contentDisposition.parse(header).parameters.filename;
  } catch {
    throw new RestError(400, 'rest_upload_invalid_disposition');
  }
  if (typeof name !== 'string' || name.trim() === '') throw new RestError(400, 'rest_upload_invalid_disposition');
  return name;
}

function textField(fields: Record<string, unknown>, name: keyof typeof TEXT_LIMITS): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParam(name, REASONS.string);
  if ([...value].length > TEXT_LIMITS[name]) throw invalidParam(name, tooLarge(TEXT_LIMITS[name]));
  return value;
}

/**
 * Reads the upload from a multipart body (part `file`) or a raw body named by
 * `Content-Disposition`; checks the optional `Content-MD5` and the text fields.
 */
export async function readUploadRequest(request: FastifyRequest, maxBytes: number): Promise<UploadRequest> {
  let bytes: Buffer | undefined;
  let fileName: string;
  let fields: Record<string, unknown> = { ...(request.query as Record<string, unknown>) };
  if (request.isMultipart()) {
    const read = await readMultipart(request, maxBytes);
    if (read.file === undefined || read.file.length === 0) throw noData();
    bytes = read.file;
    fileName = read.fileName;
    fields = read.fields;
  } else {
    bytes = Buffer.isBuffer(request.body) ? request.body : undefined;
    if (bytes === undefined || bytes.length === 0) throw noData();
    if (bytes.length > maxBytes) throw fileTooBig();
    if (request.headers['content-type'] === undefined) throw new RestError(400, 'rest_upload_no_content_type');
    fileName = dispositionFileName(request.headers['content-disposition']);
  }
  const md5 = request.headers['content-md5'];
  if (typeof md5 === 'string' && createHash('md5').update(bytes).digest('hex') !== md5.trim().toLowerCase()) {
    throw new RestError(412, 'rest_upload_hash_mismatch');
  }
  return { bytes, fileName, title: textField(fields, 'title'), altText: textField(fields, 'alt_text') };
}
