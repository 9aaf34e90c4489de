// clang 19's front end in ptxcc's process (driver/src/exec.rs, `Cmd::frontend`): what `clang-19 -E
// ...` and `clang-19 -c -emit-llvm ...` do, without starting clang. A clang process spends about
// 40 ms of CPU loading libclang-cpp and libLLVM before it reads a line; ptxcc runs two per source
// (the preprocessor, then the host IR), a fifth of its CPU time on test-suite/stream/stream_omp.c.
//
// The same steps as clang's own driver with its in-process cc1 (clang/tools/driver): the driver
// (clang::driver::Driver, given the clang executable's path, so that it finds the same resource
// directory and GCC installation) turns the command line into jobs; each job must be a `-cc1` job,
// run as cc1_main runs it (CompilerInvocation from its arguments, ExecuteCompilerInvocation), inside
// a CrashRecoveryContext as clang runs in-process jobs (a crash of clang's is reported as clang
// reports it, with its stack, and fails the command), and without `-disable-free`. Diagnostics go to standard error as clang
// prints them (the driver's own with the executable's name, as `clang-19: error: ...`).
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/FrontendTool/Utils.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace clang;

static char *message(const std::string &s) { return strdup(s.c_str()); }

// One `-cc1` job (its arguments after `-cc1`), as clang's cc1_main runs it. Returns its status.
static int run_cc1(llvm::ArrayRef<const char *> args, const char *argv0) {
  auto instance = std::make_unique<CompilerInstance>();
  llvm::IntrusiveRefCntPtr<DiagnosticIDs> ids(new DiagnosticIDs());
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> options = new DiagnosticOptions();
  // The invocation's own diagnostics wait until its printer exists (as in cc1_main).
  auto *buffer = new TextDiagnosticBuffer;
  DiagnosticsEngine early(ids, &*options, buffer);
  bool ok = CompilerInvocation::CreateFromArgs(instance->getInvocation(), args, early, argv0);
  instance->createDiagnostics();
  if (!instance->hasDiagnostics())
    return 1;
  buffer->FlushDiagnostics(instance->getDiagnostics());
  if (!ok)
    return 1;
  ok = ExecuteCompilerInvocation(instance.get());
  llvm::outs().flush();
  return ok ? 0 : 1;
}

// Runs `clang args...` in process, `clang` being the executable's path. Returns the exit status clang
// would have (0, or 1 after its diagnostics), or -1 with a message in `*error` (free it with
// ptxcc_free_message) when a job is not a front-end job: the caller then starts clang instead.
extern "C" int ptxcc_clang_in_process(const char *clang, const char *const *args, int count, char **error) {
  static bool ready = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)ready;
  std::vector<const char *> argv;
  argv.push_back(clang);
  argv.insert(argv.end(), args, args + count);

  // (Reference-counted: the printer and the engine hold it too.)
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> driver_options(CreateAndPopulateDiagOpts(argv).release());
  auto *printer = new TextDiagnosticPrinter(llvm::errs(), &*driver_options);
  printer->setPrefix(std::string(llvm::sys::path::stem(clang)));
  llvm::IntrusiveRefCntPtr<DiagnosticIDs> ids(new DiagnosticIDs());
  DiagnosticsEngine diags(ids, &*driver_options, printer);
  // The driver finds its resource directory and GCC installation from the executable's real
  // path (a clang process reads /proc/self/exe: /usr/lib/llvm-19/bin/clang for
  // /usr/bin/clang-19); its name, in diagnostics, stays the one it was called by.
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(clang, real))
    real = clang;
  driver::Driver driver(real.str(), llvm::sys::getDefaultTargetTriple(), diags, "clang LLVM compiler");
  std::unique_ptr<driver::Compilation> compilation(driver.BuildCompilation(argv));
  if (!compilation || compilation->containsError() || diags.hasErrorOccurred())
    return 1;
  for (const driver::Command &job : compilation->getJobs()) {
    const llvm::opt::ArgStringList &job_args = job.getArguments();
    if (job_args.empty() || std::strcmp(job_args[0], "-cc1") != 0) {
      *error = message(std::string("a job of '") + job.getExecutable() + "' is not a front-end job");
      return -1;
    }
  }
  // The crash handlers only while clang runs: ptxcc's own (driver/src/fatal) stay in place.
  llvm::CrashRecoveryContext::Enable();
  int status = 0;
  for (const driver::Command &job : compilation->getJobs()) {
    // clang keeps its front end's memory to the end of a process that ends right after it
    // (-disable-free); ptxcc goes on (the passes, the host object), so it is freed.
    std::vector<const char *> job_args;
    for (const char *a : llvm::ArrayRef<const char *>(job.getArguments()).drop_front())
      if (std::strcmp(a, "-disable-free") != 0)
        job_args.push_back(a);
    llvm::CrashRecoveryContext context;
    context.DumpStackAndCleanupOnFailure = true;
    if (!context.RunSafely([&] { status = run_cc1(job_args, job.getExecutable()); }))
      status = context.RetCode ? context.RetCode : 1;
    llvm::errs().flush();
    if (status != 0)
      break;
  }
  llvm::CrashRecoveryContext::Disable();
  return status;
}
