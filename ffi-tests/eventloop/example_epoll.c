/* Builds and runs examples/epoll.c as the test `eventloop.example_epoll`:
 * an epoll loop on the readiness fd gets a map and a work-done of a ~200 ms
 * job, with the right data, and the waiting thread's CPU time stays under 5%
 * of the wait's wall time (the example exits non-zero otherwise). */
#include "../../examples/epoll.c"
