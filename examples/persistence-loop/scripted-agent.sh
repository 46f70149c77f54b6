#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run . --agent "sh scripted-agent.sh"
# ralf sends the task's prompt on stdin; this script ignores it and writes the finished module.
cat > /dev/null
cat > slug.mjs <<'JS'
export function slugify(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}
JS
