// WriteFileAtomicStreamed (animconv/io.h): the output's pieces are written on one thread while
// the producer makes the next ones on the others. On a 50 MB Unity CSV to three.js JSON, copying
// the 72 MB into the page cache was a third of the job after the formatting
// (docs/performance.md, "Writing while formatting").
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
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

// Pieces in order, and the memory of those handed over (PublishOwned): the views point into
// `owned`, a deque, whose strings stay where they are as more come and when it is swapped. Kept
// pieces (PublishKept) hold their owners here until the batch is cleared, after it was written.
struct PieceBatch {
  std::vector<std::string_view> pieces;
  std::deque<std::string> owned;
  std::vector<std::shared_ptr<const void>> owners;

  void Add(std::string_view piece) { pieces.push_back(piece); }
  void AddKept(std::string_view piece, std::shared_ptr<const void> owner) {
    pieces.push_back(piece);
    // Consecutive pieces mostly share their owner (one TextPieces): held once.
    if (owners.empty() || owners.back() != owner) owners.push_back(std::move(owner));
  }
  void AddOwned(std::string piece) {
    owned.push_back(std::move(piece));
    pieces.push_back(owned.back());
  }
  void Clear() {
    pieces.clear();
    owned.clear();
    owners.clear();
  }
  void Swap(PieceBatch& other) {
    pieces.swap(other.pieces);
    owned.swap(other.owned);
    owners.swap(other.owners);
  }
};

// The pieces published and not yet taken by the writing thread. The writing thread frees an
// owned piece once it is written, and the producer's next texts reuse the blocks.
class PieceQueue : public PieceSink {
 public:
  void Publish(std::string_view piece) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) throw WriteStopped();
    pending_.Add(piece);
    if (pending_.pieces.size() == 1) ready_.notify_one();
  }
  void PublishKept(std::string_view piece, std::shared_ptr<const void> owner) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) throw WriteStopped();
    pending_.AddKept(piece, std::move(owner));
    if (pending_.pieces.size() == 1) ready_.notify_one();
  }
  void PublishOwned(std::string piece) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) throw WriteStopped();
    pending_.AddOwned(std::move(piece));
    if (pending_.pieces.size() == 1) ready_.notify_one();
  }
  // No more pieces come; `discard`: those not taken yet are not written either (the producer
  // failed, the temporary file is to be removed).
  void Close(bool discard) {
    const std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    if (discard) pending_.Clear();
    ready_.notify_one();
  }
  // The write failed: Publish throws from now on.
  void Stop() {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  // Waits for pieces and moves all there are into `batch` (emptied first, which frees the pieces
  // it owned); false once the queue is closed and empty.
  bool Take(PieceBatch* batch) {
    batch->Clear();
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return !pending_.pieces.empty() || closed_; });
    batch->Swap(pending_);
    return !batch->pieces.empty();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  PieceBatch pending_;
  bool closed_ = false;
  bool stopped_ = false;
};

// Without threads: every piece is kept and written once produce is done.
class PieceList : public PieceSink {
 public:
  void Publish(std::string_view piece) override { batch.Add(piece); }
  void PublishKept(std::string_view piece, std::shared_ptr<const void> owner) override {
    batch.AddKept(piece, std::move(owner));
  }
  void PublishOwned(std::string piece) override { batch.AddOwned(std::move(piece)); }
  PieceBatch batch;
};

// Every piece kept, and written once produce is done: builds without threads, and a process that
// cannot start one more (EAGAIN under a limit on threads; an exception there used to end the
// job with an internal error, found in review, session 32).
void WriteAfterProducing(const PieceWriter& write, const std::function<void(PieceSink&)>& produce) {
  PieceList list;
  produce(list);
  write(list.batch.pieces);
}

}  // namespace

void WriteFileAtomicStreamed(const std::string& path,
                             const std::function<void(PieceSink&)>& produce) {
#if ANIMCONV_THREADS
  WriteFileAtomicFed(path, [&](const PieceWriter& write) {
    PieceQueue queue;
    std::exception_ptr write_failure;
    std::thread writer;
    try {
      writer = std::thread([&] {
        try {
          PieceBatch batch;
          while (queue.Take(&batch)) write(batch.pieces);
        } catch (...) {
          write_failure = std::current_exception();
          queue.Stop();
        }
      });
    } catch (const std::system_error&) {
      WriteAfterProducing(write, produce);
      return;
    }
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
  WriteFileAtomicFed(path, [&](const PieceWriter& write) { WriteAfterProducing(write, produce); });
#endif
}

}  // namespace animconv
