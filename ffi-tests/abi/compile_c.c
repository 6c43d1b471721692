/* Header compile test, C (built as C99, C11 and C17 with warnings as errors).
 *
 * Instantiates every *_INIT macro of <webgpu/webgpu.h> once (the list comes
 * from webgpu_abi_table.inc) and checks the value each one gives, plus enum
 * and bit flag values, struct sizes and member offsets.  From C11 on, member,
 * callback and function types are also checked with _Generic.  No function is
 * called, so the program does not link against the library. */
#include <webgpu/webgpu.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define ABI_HAVE_C11 1
#else
#define ABI_HAVE_C11 0
#endif

static int g_passed = 0;
static int g_failed = 0;

static void record(int ok, const char *what) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        printf("FAIL %s\n", what);
    }
}

struct AlignProbe {
    char c;
    uint64_t v;
};

#define ABI_LP64 (sizeof(void *) == 8)
/* See test_abi.cpp: the ILP32 column assumes 8-byte aligned 64-bit members. */
#define ABI_LAYOUT_COMPARABLE (ABI_LP64 || offsetof(struct AlignProbe, v) == 8)
#define ABI_COL(lp64, ilp32) (ABI_LP64 ? (size_t)(lp64) : (size_t)(ilp32))

#if ABI_HAVE_C11
#define ABI_IS_TYPE(expr, Type) _Generic((expr), Type: 1, default: 0)
#endif

static void check_init_values(void) {
#define ABI_TYPEDEF(Name, Type)
#define ABI_CONSTANT(Name, Type, Value) record((Type)(Name) == (Type)(Value), "constant " #Name);
#define ABI_CONSTANT_NAN(Name, Type) record(isnan(Name), "constant " #Name " is NaN");
#define ABI_OBJECT(Handle, Impl)
#define ABI_ENUM(Enum) record(sizeof(Enum) == 4, "sizeof " #Enum);
#define ABI_ENUM_VALUE(Enum, Name, Value) record((uint64_t)(Name) == (uint64_t)(Value), "value of " #Name);
#define ABI_BITFLAG_VALUE(Flags, Name, Value) record((Name) == (uint64_t)(Value), "value of " #Name);
#define ABI_STRUCT(Struct, Size64, Align64, Size32, Align32) \
    record(!ABI_LAYOUT_COMPARABLE || sizeof(Struct) == ABI_COL(Size64, Size32), "sizeof " #Struct);
#define ABI_MEMBER(Struct, Member, Type, Off64, Off32) \
    record(!ABI_LAYOUT_COMPARABLE || offsetof(Struct, Member) == ABI_COL(Off64, Off32), "offset of " #Struct "." #Member);
#define ABI_INIT(Struct, Init) \
    {                          \
        Struct value = Init;   \
        (void)value;           \
    }
#define ABI_INIT_FIELD(Struct, Init, Path, Value) record((Init).Path == (Value), #Init "." #Path " == " #Value);
#define ABI_INIT_FIELD_NAN(Struct, Init, Path) record(isnan((Init).Path), #Init "." #Path " is NaN");
#define ABI_CALLBACK(Name, Ret, Params)
#define ABI_FUNCTION(Name, Proc, Ret, Params)
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
}

#if ABI_HAVE_C11
static void check_types(void) {
#define ABI_TYPEDEF(Name, Type) \
    {                           \
        Name probe_ = 0;        \
        record(ABI_IS_TYPE(probe_, Type), "typedef " #Name); \
    }
#define ABI_CONSTANT(Name, Type, Value)
#define ABI_CONSTANT_NAN(Name, Type) record(ABI_IS_TYPE(Name, Type), "type of " #Name);
#define ABI_OBJECT(Handle, Impl) \
    {                            \
        Handle probe_ = NULL;    \
        record(ABI_IS_TYPE(probe_, struct Impl *), "object handle " #Handle); \
    }
#define ABI_ENUM(Enum)
#define ABI_ENUM_VALUE(Enum, Name, Value)
#define ABI_BITFLAG_VALUE(Flags, Name, Value) record(ABI_IS_TYPE(Name, Flags), "type of " #Name);
#define ABI_STRUCT(Struct, Size64, Align64, Size32, Align32) \
    record(!ABI_LAYOUT_COMPARABLE || _Alignof(Struct) == ABI_COL(Align64, Align32), "alignof " #Struct);
#define ABI_MEMBER(Struct, Member, Type, Off64, Off32) \
    record(ABI_IS_TYPE(((Struct *)0)->Member, Type), "type of " #Struct "." #Member);
#define ABI_INIT(Struct, Init) record(ABI_IS_TYPE(Init, Struct), "type of " #Init);
#define ABI_INIT_FIELD(Struct, Init, Path, Value)
#define ABI_INIT_FIELD_NAN(Struct, Init, Path)
#define ABI_CALLBACK(Name, Ret, Params) \
    {                                   \
        Name probe_ = NULL;             \
        record(ABI_IS_TYPE(probe_, Ret(*) Params), "callback type " #Name); \
    }
#define ABI_FUNCTION(Name, Proc, Ret, Params)                                \
    record(ABI_IS_TYPE(&Name, Ret(*) Params), "signature of " #Name);        \
    {                                                                        \
        Proc probe_ = NULL;                                                  \
        record(ABI_IS_TYPE(probe_, Ret(*) Params), "proc type " #Proc);      \
    }
#include "webgpu_abi_table.inc"
}
#endif

int main(void) {
    check_init_values();
#if ABI_HAVE_C11
    check_types();
#endif
    printf("compile test (C, __STDC_VERSION__ %ld): %d passed, %d failed\n",
           (long)__STDC_VERSION__, g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
