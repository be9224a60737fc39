#!/bin/sh
# usage: sh watchdog.sh COMMAND [ARG…]   (stdin: a pipe from the process that starts it)
#
# Runs COMMAND (DynamoDB Local's java) so that it cannot outlive the process that started it: COMMAND is
# stopped when this script's stdin reaches end of file. The starter (npm start, the test setup) holds the
# only write end of that pipe, and the kernel closes it whenever the starter ends — a signal, a crash,
# even SIGKILL, which no handler of its own would see. SIGTERM, SIGINT and SIGHUP to this script stop
# COMMAND too. Exits with COMMAND's status (127: COMMAND not found).

# Set before COMMAND starts, so that no signal can end this script with COMMAND left running; a signal
# that comes before COMMAND has a pid is remembered and acted on as soon as it has one.
command_pid=
stop_requested=
trap 'stop_requested=1; [ -n "$command_pid" ] && kill "$command_pid" 2>/dev/null' TERM INT HUP

exec 3<&0 </dev/null
"$@" 3<&- &
command_pid=$!
[ -n "$stop_requested" ] && kill "$command_pid" 2>/dev/null

# Reads nothing (the starter never writes) until end of file, then stops COMMAND.
(
  while read -r _; do :; done <&3
  kill "$command_pid" 2>/dev/null
) &
watcher_pid=$!
exec 3<&-

wait "$command_pid"
status=$?
# A trapped signal ends `wait` early while COMMAND is still stopping: wait until it has really gone.
while kill -0 "$command_pid" 2>/dev/null; do
  wait "$command_pid"
  status=$?
done
kill "$watcher_pid" 2>/dev/null
exit "$status"
