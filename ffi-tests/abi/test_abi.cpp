// ABI test for include/webgpu/webgpu.h (C++11).
//
// Every fact in webgpu_abi_table.inc (generated from webgpu.yml by
// tools/gen_webgpu.py, with layouts computed independently of any compiler)
// is checked twice:
//   1. at compile time (static_assert), so a broken header does not build;
//   2. at run time, counting and listing every mismatch, so that a run with
//      the static_asserts disabled (-DABI_NO_STATIC_CHECKS) reports exactly
//      what differs.
// Functions are only named inside decltype(), so the program links without
// the wgpu-shim library.
#include <webgpu/webgpu.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace {

constexpr bool kLP64 = sizeof(void*) == 8;

// The table's ILP32 column assumes 64-bit members are 8-byte aligned (ARM,
// wasm32).  The i386 System V ABI aligns them to 4, so layouts are not
// comparable there and only the non-layout facts are checked.
struct AlignProbe {
    char c;
    uint64_t v;
};
constexpr bool kLayoutComparable = kLP64 || offsetof(AlignProbe, v) == 8;

#define ABI_COL(lp64, ilp32) (kLP64 ? static_cast<size_t>(lp64) : static_cast<size_t>(ilp32))
#define ABI_FN_TYPE(Ret, Params) Ret(*) Params

// ---------------------------------------------------------------------------
// Compile-time pass
// ---------------------------------------------------------------------------
#if !defined(ABI_NO_STATIC_CHECKS)

#define ABI_TYPEDEF(Name, Type) static_assert(std::is_same<Name, Type>::value, "typedef " #Name);
#define ABI_CONSTANT(Name, Type, Value) \
    static_assert(static_cast<Type>(Name) == static_cast<Type>(Value), "constant " #Name);
#define ABI_CONSTANT_NAN(Name, Type) \
    static_assert(std::is_same<std::decay<decltype(Name)>::type, Type>::value, "type of " #Name);
#define ABI_OBJECT(Handle, Impl) \
    static_assert(std::is_same<Handle, Impl*>::value, "object handle " #Handle);
#define ABI_ENUM(Enum) \
    static_assert(std::is_enum<Enum>::value && sizeof(Enum) == 4, "enum " #Enum " is 32-bit");
#define ABI_ENUM_VALUE(Enum, Name, Value)                                           \
    static_assert(std::is_same<decltype(Name), Enum>::value, "type of " #Name);     \
    static_assert(static_cast<uint64_t>(Name) == static_cast<uint64_t>(Value), "value of " #Name);
#define ABI_BITFLAG_VALUE(Flags, Name, Value)                                                      \
    static_assert(std::is_same<std::remove_cv<decltype(Name)>::type, Flags>::value, "type of " #Name); \
    static_assert(Name == static_cast<uint64_t>(Value), "value of " #Name);
#define ABI_STRUCT(Struct, Size64, Align64, Size32, Align32)                                  \
    static_assert(!kLayoutComparable || sizeof(Struct) == ABI_COL(Size64, Size32), "sizeof " #Struct); \
    static_assert(!kLayoutComparable || alignof(Struct) == ABI_COL(Align64, Align32), "alignof " #Struct);
#define ABI_MEMBER(Struct, Member, Type, Off64, Off32)                                             \
    static_assert(std::is_same<decltype(Struct::Member), Type>::value, "type of " #Struct "." #Member); \
    static_assert(!kLayoutComparable || offsetof(Struct, Member) == ABI_COL(Off64, Off32),            \
                  "offset of " #Struct "." #Member);
#define ABI_INIT(Struct, Init) static_assert(std::is_same<decltype(Init), Struct>::value, "type of " #Init);
#define ABI_INIT_FIELD(Struct, Init, Path, Value)
#define ABI_INIT_FIELD_NAN(Struct, Init, Path)
#define ABI_CALLBACK(Name, Ret, Params) \
    static_assert(std::is_same<Name, ABI_FN_TYPE(Ret, Params)>::value, "callback type " #Name);
#define ABI_FUNCTION(Name, Proc, Ret, Params)                                                        \
    static_assert(std::is_same<decltype(&Name), ABI_FN_TYPE(Ret, Params)>::value, "signature of " #Name); \
    static_assert(std::is_same<Proc, ABI_FN_TYPE(Ret, Params)>::value, "proc type " #Proc);

#include "webgpu_abi_table.inc"

#undef ABI_TYPEDEF
#undef ABI_CONSTANT
#undef ABI_CONSTANT_NAN
#undef ABI_OBJECT
#undef ABI_ENUM
#undef ABI_ENUM_VALUE
#undef ABI_BITFLAG_VALUE
#undef ABI_STRUCT
#undef ABI_MEMBER
#undef ABI_INIT
#undef ABI_INIT_FIELD
#undef ABI_INIT_FIELD_NAN
#undef ABI_CALLBACK
#undef ABI_FUNCTION

#endif  // !defined(ABI_NO_STATIC_CHECKS)

// ---------------------------------------------------------------------------
// Run-time pass
// ---------------------------------------------------------------------------

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

void record_u64(const char* what, unsigned long long actual, unsigned long long expected) {
    if (actual == expected) {
        ++g_passed;
    } else {
        ++g_failed;
        std::printf("FAIL %s: got 0x%llx, expected 0x%llx\n", what, actual, expected);
    }
}

// Printable form of a member value (for failure messages).
template <typename T>
typename std::enable_if<std::is_floating_point<T>::value, double>::type shown(T v) {
    return static_cast<double>(v);
}
template <typename T>
typename std::enable_if<std::is_integral<T>::value || std::is_enum<T>::value, double>::type shown(T v) {
    return static_cast<double>(static_cast<unsigned long long>(v));
}
template <typename T>
typename std::enable_if<std::is_pointer<T>::value, double>::type shown(T v) {
    return v == nullptr ? 0.0 : 1.0;
}

template <typename T>
void record_field(bool ok, const char* what, const char* expected, T actual) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        std::printf("FAIL %s: got %.17g, expected %s\n", what, shown(actual), expected);
    }
}

void run_checks() {
#define ABI_TYPEDEF(Name, Type) record(std::is_same<Name, Type>::value, "typedef " #Name);
#define ABI_CONSTANT(Name, Type, Value)                                                       \
    record_u64("constant " #Name, static_cast<unsigned long long>(static_cast<Type>(Name)), \
               static_cast<unsigned long long>(static_cast<Type>(Value)));
#define ABI_CONSTANT_NAN(Name, Type) \
    record(std::is_same<std::decay<decltype(Name)>::type, Type>::value && std::isnan(Name), "constant " #Name " is NaN");
#define ABI_OBJECT(Handle, Impl) record(std::is_same<Handle, Impl*>::value, "object handle " #Handle);
#define ABI_ENUM(Enum) record(std::is_enum<Enum>::value && sizeof(Enum) == 4, "enum " #Enum " is 32-bit");
#define ABI_ENUM_VALUE(Enum, Name, Value)                                   \
    record(std::is_same<decltype(Name), Enum>::value, "type of " #Name); \
    record_u64("value of " #Name, static_cast<unsigned long long>(Name), static_cast<unsigned long long>(Value));
#define ABI_BITFLAG_VALUE(Flags, Name, Value)                                                      \
    record(std::is_same<std::remove_cv<decltype(Name)>::type, Flags>::value, "type of " #Name); \
    record_u64("value of " #Name, static_cast<unsigned long long>(Name), static_cast<unsigned long long>(Value));
#define ABI_STRUCT(Struct, Size64, Align64, Size32, Align32)                                  \
    if (kLayoutComparable) {                                                              \
        record_u64("sizeof " #Struct, sizeof(Struct), ABI_COL(Size64, Size32));             \
        record_u64("alignof " #Struct, alignof(Struct), ABI_COL(Align64, Align32));         \
    }
#define ABI_MEMBER(Struct, Member, Type, Off64, Off32)                                               \
    record(std::is_same<decltype(Struct::Member), Type>::value, "type of " #Struct "." #Member " is " #Type); \
    if (kLayoutComparable) {                                                                    \
        record_u64("offset of " #Struct "." #Member, offsetof(Struct, Member), ABI_COL(Off64, Off32)); \
    }
#define ABI_INIT(Struct, Init)                                                  \
    {                                                                           \
        Struct value = Init;                                                    \
        (void)value;                                                            \
        record(std::is_same<decltype(Init), Struct>::value, "type of " #Init); \
    }
#define ABI_INIT_FIELD(Struct, Init, Path, Value) \
    record_field((Init).Path == (Value), #Init "." #Path, #Value, (Init).Path);
#define ABI_INIT_FIELD_NAN(Struct, Init, Path) record(std::isnan((Init).Path), #Init "." #Path " is NaN");
#define ABI_CALLBACK(Name, Ret, Params) \
    record(std::is_same<Name, ABI_FN_TYPE(Ret, Params)>::value, "callback type " #Name);
#define ABI_FUNCTION(Name, Proc, Ret, Params)                                                  \
    record(std::is_same<decltype(&Name), ABI_FN_TYPE(Ret, Params)>::value, "signature of " #Name); \
    record(std::is_same<Proc, ABI_FN_TYPE(Ret, Params)>::value, "proc type " #Proc);

#include "webgpu_abi_table.inc"
}

}  // namespace

int main() {
    run_checks();
    if (!kLayoutComparable) {
        std::printf("note: 64-bit members are 4-byte aligned on this target; layout checks skipped\n");
    }
    std::printf("abi.table (%s): %d passed, %d failed\n", kLP64 ? "LP64" : "ILP32", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
