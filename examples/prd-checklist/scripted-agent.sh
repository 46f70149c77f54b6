#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run PRD.md --agent "sh scripted-agent.sh"
# ralf sends the task prompt on stdin; this script ignores it and writes the finished
# project (every task at once), so each task passes on its first iteration.
cat > /dev/null
cat > greet.js <<'JS'
const name = process.argv[2] ?? 'world';
console.log(`Hello, ${name}!`);
JS
grep -q '^## Usage' README.md 2>/dev/null || printf '\n## Usage\n\n    node greet.js <name>\n' >> README.md
