// What web/src/api.cpp needs from the JavaScript around it, behind one seam so the same file also
// builds natively, where tests/web/api_test.cpp drives it under the sanitizers (docs/web.md,
// "The seams between the builds"). The emscripten build's definitions: web/src/host_emscripten.cpp.
#pragma once

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define ANIMCONV_API_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define ANIMCONV_API_EXPORT
#endif

namespace animconv::web {

// After each file of a batch: the file's result as JSON (Module.onBatchProgress in the page and
// the npm CLI, which print it as the native CLI prints its progress line).
void ReportBatchProgress(const char* result_json);
// Whether the page or the npm CLI asked the batch to stop (Module.batchStopRequested: Cancel, the
// first Ctrl-C): no new file is started then.
bool BatchStopRequested();

}  // namespace animconv::web

// The module's one entry point: a JSON request, a JSON reply valid until the next call.
extern "C" ANIMCONV_API_EXPORT const char* animconv_run(const char* request_text);
