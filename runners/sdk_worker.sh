#!/bin/sh
# Flink's PROCESS environment runs this with the worker's endpoints (runners/sdk_worker.py).
# RECORD_BUILDER_WORKER_LOG: a file to append the worker's output to (Beam drops it).
if [ -n "$RECORD_BUILDER_WORKER_LOG" ]; then
  exec "${RECORD_BUILDER_PYTHON:-python3}" -m runners.sdk_worker "$@" >>"$RECORD_BUILDER_WORKER_LOG" 2>&1
fi
exec "${RECORD_BUILDER_PYTHON:-python3}" -m runners.sdk_worker "$@"
