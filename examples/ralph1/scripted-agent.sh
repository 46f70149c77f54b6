#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run --requirements=requirements.json --history=history.jsonl --agent "sh scripted-agent.sh"
# ralf sends the requirement's prompt on stdin; this script ignores it and writes the finished module.
cat > /dev/null
cat > wordcount.mjs <<'JS'
import { fileURLToPath } from 'node:url';

export function countWords(text) {
  const words = String(text).trim().split(/\s+/).filter(Boolean);
  return words.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(countWords(process.argv.slice(2).join(' ')));
JS
echo '<ralph>TASK_DONE</ralph>'
