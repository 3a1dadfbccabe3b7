#!/bin/bash
# The stand-in's entry point: runs the command (by default "server run defaultServer"), as the
# official image's does when none of its optional features (mounted TLS certificates, session
# caches, InstantOn checkpoints) is asked for.
set -e
exec "$@"
