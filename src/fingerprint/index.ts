export { fingerprint, fingerprintLines, NO_OUTPUT, type FingerprintOptions, type FingerprintResult } from './fingerprint.js';
export { failingTests, failingTestsInLines } from './failing-tests.js';
export { normalizeName, normalizeValues } from './normalize.js';
export { OutputScanner, scanForFingerprint } from './scan.js';
