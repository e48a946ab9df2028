// The emscripten build's side of web/src/host.h: the hooks are properties of the module object,
// set by web/cli/worker.mjs and the page's worker.
#include "web/src/host.h"

EM_JS(void, animconv_batch_progress, (const char* result_json), {
  if (Module.onBatchProgress) Module.onBatchProgress(UTF8ToString(result_json));
});
EM_JS(int, animconv_batch_stop_requested, (),
      { return Module.batchStopRequested && Module.batchStopRequested() ? 1 : 0; });

namespace animconv::web {

void ReportBatchProgress(const char* result_json) { animconv_batch_progress(result_json); }

bool BatchStopRequested() { return animconv_batch_stop_requested() != 0; }

}  // namespace animconv::web
