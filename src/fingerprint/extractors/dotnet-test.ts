/** dotnet test (VSTest console logger): `  Failed Ns.Class.Test [12 ms]`. */
import { type RunnerExtractor } from './contract.js';

export const dotnetTest: RunnerExtractor = {
  name: 'dotnet-test',
  header(t) {
    if (!t.includes('Failed')) return null;
    return /^\s*Failed\s+(\S+)\s+\[[^\]]*\]\s*$/.exec(t)?.[1] ?? null;
  },
};
