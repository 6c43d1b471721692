# CMake package for wgpu-shim on Windows: scripts/install.sh --target
# x86_64-pc-windows-gnu installs this file as wgpu-shimConfig.cmake, and the
# package every install has (cmake/wgpu-shimConfig.cmake) beside it as
# wgpu-shimCommon.cmake. That one finds the files and makes the targets; this
# one adds what Windows links differently:
#
#   wgpu_shim::wgpu_shim         IMPORTED_LOCATION bin/wgpu_shim.dll, linked
#                                through its import library (IMPORTED_IMPLIB):
#                                lib/libwgpu_shim.dll.a for MinGW,
#                                lib/wgpu_shim.dll.lib for MSVC (when the
#                                install made one). Copy the DLL beside the
#                                program (or onto PATH) to run it.
#   wgpu_shim::wgpu_shim_static  lib/libwgpu_shim.a, MinGW only (a Rust
#                                windows-gnu library: MSVC cannot link it),
#                                with the Windows libraries it needs.
#
# Variables: those of wgpu-shimCommon.cmake (WGPU_SHIM_LIBRARY is the DLL),
# and WGPU_SHIM_IMPORT_LIBRARY (the import library this toolchain links).

include("${CMAKE_CURRENT_LIST_DIR}/wgpu-shimCommon.cmake")

cmake_policy(PUSH)
cmake_policy(VERSION 3.16...3.31)

# The DLL's path as wgpu-shimCommon.cmake made it (<libdir>/../bin/...),
# without the `..`.
if(WGPU_SHIM_LIBRARY)
  get_filename_component(WGPU_SHIM_LIBRARY "${WGPU_SHIM_LIBRARY}" ABSOLUTE)
endif()
if(MSVC)
  set(WGPU_SHIM_IMPORT_LIBRARY "${WGPU_SHIM_LIB_DIR}/wgpu_shim.dll.lib")
else()
  set(WGPU_SHIM_IMPORT_LIBRARY "${WGPU_SHIM_LIB_DIR}/libwgpu_shim.dll.a")
endif()

set(_wgpu_shim_error "")
if(MSVC AND wgpu-shim_FIND_REQUIRED_static)
  set(_wgpu_shim_error "the static library (libwgpu_shim.a) is for MinGW toolchains only: link wgpu_shim::wgpu_shim (the DLL) with MSVC")
elseif(wgpu-shim_FOUND AND TARGET wgpu_shim::wgpu_shim AND NOT EXISTS "${WGPU_SHIM_IMPORT_LIBRARY}")
  set(_wgpu_shim_error "missing ${WGPU_SHIM_IMPORT_LIBRARY}, the import library of ${WGPU_SHIM_LIBRARY} for this toolchain")
endif()
if(_wgpu_shim_error)
  set(wgpu-shim_FOUND FALSE)
  set(wgpu-shim_NOT_FOUND_MESSAGE "${_wgpu_shim_error}")
endif()

if(wgpu-shim_FOUND AND TARGET wgpu_shim::wgpu_shim)
  # The linker reads the import library; the DLL is what runs.
  set_target_properties(wgpu_shim::wgpu_shim PROPERTIES
    IMPORTED_LOCATION "${WGPU_SHIM_LIBRARY}"
    IMPORTED_IMPLIB "${WGPU_SHIM_IMPORT_LIBRARY}")
endif()

if(wgpu-shim_FOUND AND TARGET wgpu_shim::wgpu_shim_static)
  # `rustc --print native-static-libs` for x86_64-pc-windows-gnu says
  # -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp; the system DLLs the
  # dependencies call (dxgi, setupapi, oleaut32...) come inside the archive, as
  # raw-dylib imports. No Threads: Rust's Windows standard library uses none.
  set_target_properties(wgpu_shim::wgpu_shim_static PROPERTIES
    INTERFACE_LINK_LIBRARIES "kernel32;ntdll;userenv;ws2_32;dbghelp")
endif()

unset(_wgpu_shim_error)
cmake_policy(POP)
