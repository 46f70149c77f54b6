#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run ralph.json --agent "sh scripted-agent.sh"
# ralf sends the task prompt on stdin; this script ignores it and writes the solution.
cat > /dev/null
mkdir -p src
cat > src/slugify.mjs <<'JS'
export function slugify(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
JS
