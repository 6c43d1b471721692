/* Builds and runs examples/event_loop.c as the test
 * `eventloop.example_event_loop`: an event loop on the readiness handle
 * (epoll on Linux, a wait on the readiness event on Windows) gets a map and a
 * work-done of a ~200 ms job, with the right data, and the waiting thread's
 * CPU time stays under 5% of the wait's wall time (the example exits
 * non-zero otherwise). */
#include "../../examples/event_loop.c"
