# CMake toolchain file: cross-builds for 64-bit Windows with MinGW-w64
# (x86_64-w64-mingw32-gcc/g++; Debian packages gcc-mingw-w64-x86-64 and
# g++-mingw-w64-x86-64), and runs what it builds under Wine
# (scripts/wine-run.sh; Debian packages wine and wine64).
#
#   cmake -S ffi-tests -B build/ffi-tests-windows \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#     -DWGPU_SHIM_LIB_DIR=$PWD/target/x86_64-pc-windows-gnu/release
#   cmake --build build/ffi-tests-windows -j
#   xvfb-run -a ctest --test-dir build/ffi-tests-windows
#
# Not part of the installed package (scripts/install.sh copies only the
# wgpu-shim*.cmake files of this folder).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(WGPU_SHIM_MINGW_PREFIX x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${WGPU_SHIM_MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${WGPU_SHIM_MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${WGPU_SHIM_MINGW_PREFIX}-windres)

# Libraries and headers come from the MinGW-w64 sysroot only; programs
# (patchelf, python3...) from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${WGPU_SHIM_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The MinGW runtime (libgcc, libstdc++, winpthread) linked statically, so that
# a program needs no DLL beside it but the ones it is about (wgpu_shim.dll):
# Wine has none of MinGW's, and Windows machines seldom do. -static makes the
# linker take every library's .a where there is one; an import library
# (libwgpu_shim.dll.a, named by its full path) still links to its DLL.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

# CTest (and try_run) run each program through Wine: the 64-bit loader, with
# Wine's own messages off and a Wine prefix (its C: drive and registry) of
# the build folder's own, made on first use.
get_filename_component(_wgpu_shim_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(CMAKE_CROSSCOMPILING_EMULATOR "${_wgpu_shim_root}/scripts/wine-run.sh;--prefix;${CMAKE_BINARY_DIR}/wine-prefix")
unset(_wgpu_shim_root)
