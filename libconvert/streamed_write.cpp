// WriteFileAtomicStreamed (animconv/io.h): the output's pieces are written on one thread while
// the producer makes the next ones on the others. On a 50 MB Unity CSV to three.js JSON, copying
// the 72 MB into the page cache was a third of the job after the formatting
// (docs/performance.md, "Writing while formatting").
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "animconv/io.h"
#include "animconv/text_pieces.h"
#include "libconvert/atomic_write.h"

#if ANIMCONV_THREADS
#include <thread>
#endif

namespace animconv {
namespace {

// Thrown by Publish once the write has failed: it stops the producer, and the write's own error
// is the one reported.
struct WriteStopped : std::exception {
  const char* what() const noexcept override { return "the output's write failed"; }
};

// The pieces published and not yet taken by the writing thread.
class PieceQueue : public PieceSink {
 public:
  void Publish(std::string_view piece) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) throw WriteStopped();
    pending_.push_back(piece);
    if (pending_.size() == 1) ready_.notify_one();
  }
  // No more pieces come; `discard`: those not taken yet are not written either (the producer
  // failed, the temporary file is to be removed).
  void Close(bool discard) {
    const std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    if (discard) pending_.clear();
    ready_.notify_one();
  }
  // The write failed: Publish throws from now on.
  void Stop() {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  // Waits for pieces and moves all there are into `batch` (emptied first); false once the queue
  // is closed and empty.
  bool Take(std::vector<std::string_view>* batch) {
    batch->clear();
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return !pending_.empty() || closed_; });
    std::swap(*batch, pending_);
    return !batch->empty();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::string_view> pending_;
  bool closed_ = false;
  bool stopped_ = false;
};

// Without threads: every piece is kept and written once produce is done.
class PieceList : public PieceSink {
 public:
  void Publish(std::string_view piece) override { pieces.push_back(piece); }
  std::vector<std::string_view> pieces;
};

}  // namespace

void WriteFileAtomicStreamed(const std::string& path,
                             const std::function<void(PieceSink&)>& produce) {
#if ANIMCONV_THREADS
  WriteFileAtomicFed(path, [&](const PieceWriter& write) {
    PieceQueue queue;
    std::exception_ptr write_failure;
    std::thread writer([&] {
      try {
        std::vector<std::string_view> batch;
        while (queue.Take(&batch)) write(batch);
      } catch (...) {
        write_failure = std::current_exception();
        queue.Stop();
      }
    });
    std::exception_ptr produce_failure;
    try {
      produce(queue);
    } catch (...) {
      produce_failure = std::current_exception();
    }
    queue.Close(/*discard=*/produce_failure != nullptr);
    writer.join();
    if (write_failure) std::rethrow_exception(write_failure);
    if (produce_failure) std::rethrow_exception(produce_failure);
  });
#else
  WriteFileAtomicFed(path, [&](const PieceWriter& write) {
    PieceList list;
    produce(list);
    write(list.pieces);
  });
#endif
}

}  // namespace animconv
