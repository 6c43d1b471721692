// Header compile test, C++ (built as C++11 and C++17 with warnings as errors).
//
// Instantiates every *_INIT macro of <webgpu/webgpu.h> once (the list comes
// from webgpu_abi_table.inc) and checks the value each one gives.  The full
// type and layout checks are in test_abi.cpp.  No function is called, so the
// program does not link against the library.
#include <webgpu/webgpu.h>

#include <cmath>
#include <cstdio>

namespace {

int g_passed = 0;
int g_failed = 0;

void record(bool ok, const char* what) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        std::printf("FAIL %s\n", what);
    }
}

void check_inits() {
#define ABI_TYPEDEF(Name, Type)
#define ABI_CONSTANT(Name, Type, Value)
#define ABI_CONSTANT_NAN(Name, Type)
#define ABI_OBJECT(Handle, Impl)
#define ABI_ENUM(Enum)
#define ABI_ENUM_VALUE(Enum, Name, Value)
#define ABI_BITFLAG_VALUE(Flags, Name, Value)
#define ABI_STRUCT(Struct, Size64, Align64, Size32, Align32)
#define ABI_MEMBER(Struct, Member, Type, Off64, Off32)
#define ABI_INIT(Struct, Init) \
    {                          \
        Struct value = Init;   \
        (void)value;           \
    }
#define ABI_INIT_FIELD(Struct, Init, Path, Value) record((Init).Path == (Value), #Init "." #Path " == " #Value);
#define ABI_INIT_FIELD_NAN(Struct, Init, Path) record(std::isnan((Init).Path), #Init "." #Path " is NaN");
#define ABI_CALLBACK(Name, Ret, Params)
#define ABI_FUNCTION(Name, Proc, Ret, Params)
#include "webgpu_abi_table.inc"
}

}  // namespace

int main() {
    check_inits();
    std::printf("compile test (C++, __cplusplus %ld): %d passed, %d failed\n",
                static_cast<long>(__cplusplus), g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
