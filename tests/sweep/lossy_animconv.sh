#!/bin/sh
# A deliberately wrong animconv for sweep.detects-silent-error: every `convert` runs with a 20°
# rotation tolerance for --reduce, so outputs play up to 20° off with exit 0 and no warning. The
# sweep must fail on it (the test is WILL_FAIL); ANIMCONV_REAL is the real binary.
if [ "$1" = convert ]; then exec "$ANIMCONV_REAL" "$@" --reduce-rotation 20; fi
exec "$ANIMCONV_REAL" "$@"
