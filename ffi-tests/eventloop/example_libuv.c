/* Builds and runs examples/libuv_loop.c as the tests `eventloop.example_libuv`
 * and, with --release-while-watched, `eventloop.example_libuv_release_while_watched`
 * (ffi-tests/CMakeLists.txt; it links Debian's libuv1-dev): a uv_poll_t on
 * the readiness fd gets a map and a work-done of a ~200 ms job while a 16 ms
 * frame timer runs, with the right data, each callback once on the loop's
 * thread, and the loop thread's CPU at most 5% of the wait's wall time; and
 * releasing the instance while the handle is active cancels the callbacks
 * inside the release, after which the handle never fires (the example exits
 * non-zero otherwise). */
#include "../../examples/libuv_loop.c"
