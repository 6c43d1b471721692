/* Builds and runs examples/wait_multiple_objects.c (Windows only; run under
 * Wine by scripts/windows-tests.sh) as the tests
 * `win32.readiness_wait_multiple_objects` and, with --release-while-watched,
 * `win32.readiness_wait_multiple_objects_release_while_watched`: a
 * WaitForMultipleObjects loop over the instance's readiness event and a
 * 16 ms waitable timer gets a map and a work-done of a ~200 ms job, with the
 * right data, each callback once on the loop's thread, and the loop thread's
 * CPU at most 5% of the wait's wall time (beyond two 10 ms steps of Wine's
 * thread CPU clock, which a 1 ms cost can cross); and releasing the instance while
 * the event is in the wait's array cancels the callbacks inside the release,
 * after which the event is never set, and once the handle is closed a wait
 * listing it fails with ERROR_INVALID_HANDLE (the example exits non-zero
 * otherwise). */
#include "../../examples/wait_multiple_objects.c"
