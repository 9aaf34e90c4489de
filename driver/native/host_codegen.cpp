// The host object's code generation in ptxcc's process (driver/src/stages/host_object.rs), set up
// as clang 19 sets it up for `clang -c -O<n> x.bc` (clang's BackendUtil.cpp, EmitAssembly): the
// target machine with clang's target options for an ELF host (constructors in .init_array, the
// address-significance table, GDB's debugger tuning), the target library information of the
// module's triple, ObjC ARC's contraction pass above -O0 (which clang adds for every language and
// which changes nothing in C), and the code generator's passes without the IR verifier. LLVM's C
// interface (LLVMTargetMachineEmitToFile) has none of these: its default options put constructors
// in .ctors, and without the triple's library information the code generator makes other code.
#include <llvm-c/Core.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/ObjCARC.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace llvm;

static char *message(const std::string &s) { return strdup(s.c_str()); }

// Writes `module` as an object file to `path` for the target of its triple and `cpu`, at code
// generation level `level` (0 None, 1 Less, 2 Default, 3 Aggressive), position-independent when
// `pic` (the module's "PIC Level" flag, which clang set from -fPIC/-fPIE/its default PIE). Returns
// 0, or 1 with a message in `*error` (free it with ptxcc_free_message).
extern "C" int ptxcc_emit_host_object(LLVMModuleRef module, const char *cpu, int level, int pic, const char *path,
                                      char **error) {
  Module *M = unwrap(module);
  Triple triple(M->getTargetTriple());
  std::string err;
  const Target *target = TargetRegistry::lookupTarget(triple.str(), err);
  if (!target) {
    *error = message(err);
    return 1;
  }
  TargetOptions options;
  options.UseInitArray = true;
  options.EmitAddrsig = triple.isOSBinFormatELF();
  options.DebuggerTuning = DebuggerKind::GDB;
  CodeGenOptLevel opt = level <= 0   ? CodeGenOptLevel::None
                        : level == 1 ? CodeGenOptLevel::Less
                        : level == 2 ? CodeGenOptLevel::Default
                                     : CodeGenOptLevel::Aggressive;
  Reloc::Model reloc = pic ? Reloc::PIC_ : Reloc::Static;
  std::unique_ptr<TargetMachine> tm(
      target->createTargetMachine(triple.str(), cpu, "", options, reloc, std::nullopt, opt));
  if (!tm) {
    *error = message("cannot create a target machine for " + triple.str());
    return 1;
  }
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_None);
  if (ec) {
    *error = message("cannot write '" + std::string(path) + "': " + ec.message());
    return 1;
  }
  legacy::PassManager passes;
  passes.add(createTargetTransformInfoWrapperPass(tm->getTargetIRAnalysis()));
  TargetLibraryInfoImpl library(triple);
  passes.add(new TargetLibraryInfoWrapperPass(library));
  if (opt != CodeGenOptLevel::None)
    passes.add(createObjCARCContractPass());
  if (tm->addPassesToEmitFile(passes, out, nullptr, CodeGenFileType::ObjectFile, /*DisableVerify=*/true)) {
    *error = message("the target cannot emit an object file");
    return 1;
  }
  passes.run(*M);
  out.flush();
  if (out.has_error()) {
    *error = message("cannot write '" + std::string(path) + "': " + out.error().message());
    out.clear_error();
    return 1;
  }
  return 0;
}

extern "C" void ptxcc_free_message(char *m) { free(m); }
