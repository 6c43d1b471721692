# CMake package for wgpu-shim: installed (scripts/install.sh puts it in
# <libdir>/cmake/wgpu-shim) or straight from the source tree.
#
#   find_package(wgpu-shim REQUIRED)    # with -DCMAKE_PREFIX_PATH=<prefix> when it is not a system prefix
#   # or, from the source tree after `cargo build --release`:
#   find_package(wgpu-shim REQUIRED PATHS /path/to/wgpu-shim/cmake)   # or -Dwgpu-shim_DIR=...
#   target_link_libraries(app PRIVATE wgpu_shim::wgpu_shim)         # libwgpu_shim.so
#   target_link_libraries(app PRIVATE wgpu_shim::wgpu_shim_static)  # libwgpu_shim.a
#
# Imported targets (each defined when its library file exists):
#   wgpu_shim::wgpu_shim         the shared library (SONAME libwgpu_shim.so.0);
#                                executables get its folder in their build RPATH.
#   wgpu_shim::wgpu_shim_static  the static library, with the system libraries
#                                the Rust standard library needs.
# Both carry the include folder: #include <webgpu/webgpu.h>, <webgpu/wgpu.h>,
# <webgpu/wgpu_shim.h>.
#
# Components: `shared` and `static` (find_package(wgpu-shim REQUIRED COMPONENTS
# static) needs only libwgpu_shim.a). Without components, the shared library
# is required.
#
# Installed, the package finds its files relative to its own folder (the
# layout scripts/install.sh wrote into wgpu-shimInstall.cmake beside it). From
# the source tree, two cache variables say where they are:
#   WGPU_SHIM_LIB_DIR      where the libraries are (default: <repo>/target/release,
#                          or $CARGO_TARGET_DIR/release when that is set; a
#                          relative CARGO_TARGET_DIR is taken from <repo>, where
#                          the scripts run cargo, as scripts/env.sh takes it).
#   WGPU_SHIM_INCLUDE_DIR  the folder that holds webgpu/webgpu.h (default: <repo>/include).
#
# Variables set: wgpu-shim_FOUND, wgpu-shim_VERSION, WGPU_SHIM_INCLUDE_DIR,
# WGPU_SHIM_LIB_DIR, WGPU_SHIM_LIBRARY (shared), WGPU_SHIM_STATIC_LIBRARY (static).

cmake_policy(PUSH)
cmake_policy(VERSION 3.16...3.31)

set(_wgpu_shim_soname "")
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/wgpu-shimInstall.cmake")
  # Installed: everything relative to this folder.
  include("${CMAKE_CURRENT_LIST_DIR}/wgpu-shimInstall.cmake")
  get_filename_component(WGPU_SHIM_LIB_DIR "${CMAKE_CURRENT_LIST_DIR}/${_wgpu_shim_installed_lib_dir}" ABSOLUTE)
  get_filename_component(WGPU_SHIM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/${_wgpu_shim_installed_include_dir}" ABSOLUTE)
  set(WGPU_SHIM_LIBRARY "${WGPU_SHIM_LIB_DIR}/${_wgpu_shim_installed_library}")
  set(_wgpu_shim_soname "${_wgpu_shim_installed_soname}")
  set(_wgpu_shim_hint "reinstall wgpu-shim (scripts/install.sh)")
  unset(_wgpu_shim_installed_version)
  unset(_wgpu_shim_installed_soname)
  unset(_wgpu_shim_installed_library)
  unset(_wgpu_shim_installed_lib_dir)
  unset(_wgpu_shim_installed_include_dir)
else()
  # The source tree: cargo's output folder.
  get_filename_component(_wgpu_shim_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  if(NOT "$ENV{CARGO_TARGET_DIR}" STREQUAL "")
    # Relative: from the repository root, where the scripts run cargo.
    get_filename_component(_wgpu_shim_default_lib_dir "$ENV{CARGO_TARGET_DIR}/release" ABSOLUTE
                           BASE_DIR "${_wgpu_shim_root}")
  else()
    set(_wgpu_shim_default_lib_dir "${_wgpu_shim_root}/target/release")
  endif()
  set(WGPU_SHIM_LIB_DIR "${_wgpu_shim_default_lib_dir}" CACHE PATH
      "Folder with libwgpu_shim.so and libwgpu_shim.a (cargo's target/release)")
  set(WGPU_SHIM_INCLUDE_DIR "${_wgpu_shim_root}/include" CACHE PATH
      "Folder with webgpu/webgpu.h for wgpu-shim")
  set(WGPU_SHIM_LIBRARY "${WGPU_SHIM_LIB_DIR}/${CMAKE_SHARED_LIBRARY_PREFIX}wgpu_shim${CMAKE_SHARED_LIBRARY_SUFFIX}")
  # build.rs gives the Linux library the SONAME libwgpu_shim.so.<major> and
  # puts a link of that name beside it; a library without one (another
  # system, or an older build) is linked by -L/-l instead (below).
  file(GLOB _wgpu_shim_soname LIST_DIRECTORIES FALSE "${WGPU_SHIM_LIB_DIR}/libwgpu_shim.so.[0-9]*")
  if(_wgpu_shim_soname)
    list(GET _wgpu_shim_soname 0 _wgpu_shim_soname)
    get_filename_component(_wgpu_shim_soname "${_wgpu_shim_soname}" NAME)
  endif()
  set(_wgpu_shim_hint "run `cargo build --release` in ${_wgpu_shim_root} (or set WGPU_SHIM_LIB_DIR to the folder with the libraries)")
endif()

set(WGPU_SHIM_STATIC_LIBRARY "${WGPU_SHIM_LIB_DIR}/${CMAKE_STATIC_LIBRARY_PREFIX}wgpu_shim${CMAKE_STATIC_LIBRARY_SUFFIX}")

set(wgpu-shim_shared_FOUND FALSE)
set(wgpu-shim_static_FOUND FALSE)
if(EXISTS "${WGPU_SHIM_LIBRARY}")
  set(wgpu-shim_shared_FOUND TRUE)
endif()
if(EXISTS "${WGPU_SHIM_STATIC_LIBRARY}")
  set(wgpu-shim_static_FOUND TRUE)
endif()

# Which libraries must exist: the required components, or the shared one.
set(_wgpu_shim_needed "")
set(_wgpu_shim_error "")
if(wgpu-shim_FIND_COMPONENTS)
  foreach(_wgpu_shim_c IN LISTS wgpu-shim_FIND_COMPONENTS)
    if(NOT _wgpu_shim_c MATCHES "^(shared|static)$")
      set(_wgpu_shim_error "unknown component `${_wgpu_shim_c}` (known: shared, static)")
    elseif(wgpu-shim_FIND_REQUIRED_${_wgpu_shim_c})
      list(APPEND _wgpu_shim_needed ${_wgpu_shim_c})
    endif()
  endforeach()
else()
  set(_wgpu_shim_needed shared)
endif()
set(_wgpu_shim_missing "")
foreach(_wgpu_shim_c IN LISTS _wgpu_shim_needed)
  if(NOT wgpu-shim_${_wgpu_shim_c}_FOUND)
    if(_wgpu_shim_c STREQUAL "shared")
      list(APPEND _wgpu_shim_missing "${WGPU_SHIM_LIBRARY}")
    else()
      list(APPEND _wgpu_shim_missing "${WGPU_SHIM_STATIC_LIBRARY}")
    endif()
  endif()
endforeach()
if(NOT _wgpu_shim_error AND _wgpu_shim_missing)
  list(JOIN _wgpu_shim_missing " and " _wgpu_shim_missing)
  set(_wgpu_shim_error "missing ${_wgpu_shim_missing}: ${_wgpu_shim_hint}")
endif()
if(NOT _wgpu_shim_error AND NOT EXISTS "${WGPU_SHIM_INCLUDE_DIR}/webgpu/webgpu.h")
  set(_wgpu_shim_error "missing ${WGPU_SHIM_INCLUDE_DIR}/webgpu/webgpu.h (set WGPU_SHIM_INCLUDE_DIR)")
endif()
if(NOT _wgpu_shim_error AND wgpu-shim_static_FOUND AND NOT TARGET Threads::Threads)
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  if(wgpu-shim_FIND_QUIETLY)
    find_package(Threads QUIET)
  else()
    find_package(Threads)
  endif()
  if(NOT Threads_FOUND)
    set(_wgpu_shim_error "the static library needs Threads, which was not found")
  endif()
endif()

if(_wgpu_shim_error)
  set(wgpu-shim_FOUND FALSE)
  set(wgpu-shim_NOT_FOUND_MESSAGE "${_wgpu_shim_error}")
else()
  set(wgpu-shim_FOUND TRUE)
endif()

if(wgpu-shim_FOUND)
  if(wgpu-shim_shared_FOUND AND NOT TARGET wgpu_shim::wgpu_shim)
    add_library(wgpu_shim::wgpu_shim SHARED IMPORTED)
    set_target_properties(wgpu_shim::wgpu_shim PROPERTIES
      IMPORTED_LOCATION "${WGPU_SHIM_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${WGPU_SHIM_INCLUDE_DIR}")
    if(_wgpu_shim_soname)
      # Linked by its path, the executable records the SONAME (DT_NEEDED
      # libwgpu_shim.so.0), found in the build RPATH at run time.
      set_target_properties(wgpu_shim::wgpu_shim PROPERTIES IMPORTED_SONAME "${_wgpu_shim_soname}")
    elseif(CMAKE_SYSTEM_NAME STREQUAL "Linux")
      # A library without DT_SONAME, linked by its path, would have that path
      # recorded in the executable. Link it as -L<dir> -lwgpu_shim instead
      # (CMake adds <dir> to the build RPATH).
      set_target_properties(wgpu_shim::wgpu_shim PROPERTIES IMPORTED_NO_SONAME TRUE)
    endif()
  endif()

  if(wgpu-shim_static_FOUND AND NOT TARGET wgpu_shim::wgpu_shim_static)
    add_library(wgpu_shim::wgpu_shim_static STATIC IMPORTED)
    # `cargo rustc --release --lib -- --print native-static-libs` reports, for
    # x86_64-unknown-linux-gnu: -ldl -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc.
    set(_wgpu_shim_static_deps Threads::Threads ${CMAKE_DL_LIBS})
    if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
      list(APPEND _wgpu_shim_static_deps m rt util gcc_s c)
    else()
      list(APPEND _wgpu_shim_static_deps m)
    endif()
    set_target_properties(wgpu_shim::wgpu_shim_static PROPERTIES
      IMPORTED_LOCATION "${WGPU_SHIM_STATIC_LIBRARY}"
      IMPORTED_LINK_INTERFACE_LANGUAGES "C"
      INTERFACE_INCLUDE_DIRECTORIES "${WGPU_SHIM_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${_wgpu_shim_static_deps}")
  endif()

  if(NOT wgpu-shim_FIND_QUIETLY)
    message(STATUS "wgpu-shim ${wgpu-shim_VERSION}: ${WGPU_SHIM_LIB_DIR}, headers ${WGPU_SHIM_INCLUDE_DIR}")
  endif()
endif()

unset(_wgpu_shim_c)
unset(_wgpu_shim_needed)
unset(_wgpu_shim_missing)
unset(_wgpu_shim_error)
unset(_wgpu_shim_static_deps)
unset(_wgpu_shim_default_lib_dir)
unset(_wgpu_shim_root)
unset(_wgpu_shim_soname)
unset(_wgpu_shim_hint)
cmake_policy(POP)
