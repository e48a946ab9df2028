# The web build's dependencies: Debian's header-only glm, fmt, nlohmann-json and fast_float, as
# the targets the native build gets from find_package. emscripten's toolchain searches only its
# own sysroot, and adding /usr/include whole would put glibc's headers before emscripten's libc,
# so each library's own folder is linked into one include directory of the build.
set(animconv_web_include ${CMAKE_BINARY_DIR}/debian-headers)
file(MAKE_DIRECTORY ${animconv_web_include})
foreach(header_dir glm fmt nlohmann fast_float)
  if(NOT EXISTS /usr/include/${header_dir})
    message(FATAL_ERROR "/usr/include/${header_dir} missing: run scripts/setup.sh (docs/web.md)")
  endif()
  file(CREATE_LINK /usr/include/${header_dir} ${animconv_web_include}/${header_dir} SYMBOLIC)
endforeach()

add_library(glm::glm INTERFACE IMPORTED)
target_include_directories(glm::glm SYSTEM INTERFACE ${animconv_web_include})
add_library(fmt::fmt INTERFACE IMPORTED)
# No libfmt.a for wasm: fmt compiled into each file that uses it.
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)
target_include_directories(fmt::fmt SYSTEM INTERFACE ${animconv_web_include})
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${animconv_web_include})
add_library(FastFloat::fast_float INTERFACE IMPORTED)
target_include_directories(FastFloat::fast_float SYSTEM INTERFACE ${animconv_web_include})

# C++ exceptions are how every error travels (animconv/error.h); emscripten turns catching off
# unless both compiling and linking ask for them. WebAssembly's own exception handling
# (-fwasm-exceptions) rather than emscripten's JavaScript emulation (-fexceptions), whose
# trampolines were 22 % of a conversion's time: 1.8x faster and a smaller .wasm, for engines with
# wasm exceptions (Node >= 17, current browsers) (docs/performance.md, "WebAssembly vs native").
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)
