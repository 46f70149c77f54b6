#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run -p . --agent "sh scripted-agent.sh"
# ralf sends the task's prompt (with AGENTS.md and the learnings) on stdin; this script ignores
# it, writes the finished script, and says it is done, as copilot_ralf's agents do.
cat > /dev/null
cat > sysinfo.sh <<'SH'
#!/bin/sh
host=$(hostname 2>/dev/null || uname -n)
kernel=$(uname -s)
if [ "$1" = "--json" ]; then
  printf '{"hostname": "%s", "kernel": "%s"}\n' "$host" "$kernel"
else
  printf 'hostname: %s\nkernel: %s\n' "$host" "$kernel"
fi
SH
echo '<ralph>TASK_DONE</ralph>'
