import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** 120 §6.4: PBKDF2/SHA-256 at cost 5,000; the counter drawn from [N/2, N). */
const ALGORITHM = 'PBKDF2/SHA-256';
const COST = 5000;

export interface PowSecrets {
  signature: string;
  keySignature: string;
}

/** Both HMAC secrets derived from the submission key, so every instance signs and verifies alike. */
export function powSecrets(key: Buffer): PowSecrets {
  const derive = (label: string) => createHmac('sha256', key).update(label).digest('hex');
  return { signature: derive('altcha-signature'), keySignature: derive('altcha-key-signature') };
}

/** A signed challenge bound to one form token (`data.form`), expiring with it. */
export function formChallenge(secrets: PowSecrets, max: number, formId: string, expiresAt: number): Promise<Challenge> {
  const low = Math.floor(max / 2);
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: low + Math.floor(Math.random() * (max - low)),
    deriveKey,
    data: { form: formId },
    expiresAt,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.keySignature,
  });
}

/**
 * Whether an `altcha` field is a solved, unexpired challenge of ours naming this form token.
 * With the key signature, verification is HMACs only: no key derivation per request.
 */
export async function verifyProofOfWork(secrets: PowSecrets, payload: string | undefined, formId: string): Promise<boolean> {
  if (payload === undefined || payload === '' || payload.length > 4000) return false;
  let decoded: { challenge?: Challenge; solution?: Solution };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return false;
  }
  const { challenge, solution } = decoded;
  if (!challenge?.parameters || !solution || typeof solution !== 'object') return false;
  if (challenge.parameters.algorithm !== ALGORITHM || challenge.parameters.data?.form !== formId || !challenge.parameters.keySignature) return false;
  try {
    const result = await verifySolution({ challenge, solution, deriveKey: refuseDerivation, hmacSignatureSecret: secrets.signature, hmacKeySignatureSecret: secrets.keySignature });
    return result.verified;
  } catch {
    return false;
  }
}

/** Verification never derives a key (§6.4): a challenge that would need one is refused. */
async function refuseDerivation(): Promise<never> {
  throw new Error('proof of work without a key signature');
}
