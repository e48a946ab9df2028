# The installed package (docs/architecture.md, "Library use"): the public headers of
# include/animconv/, the three static libraries as animconv::libconvert, animconv::formats and
# animconv::pipeline, the `animconv` tool, a CMake package config and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS libconvert formats pipeline EXPORT animconvTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS animconv RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/animconv
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

set(animconv_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/animconv)
install(EXPORT animconvTargets NAMESPACE animconv:: DESTINATION ${animconv_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/animconvConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/animconvConfig.cmake
                              INSTALL_DESTINATION ${animconv_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/animconvConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/animconvConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/animconvConfigVersion.cmake
        DESTINATION ${animconv_cmake_dir})

# Relocatable: the prefix is found from where the .pc file lies, so `cmake --install --prefix`
# anywhere gives a working pkg-config file.
file(RELATIVE_PATH animconv_pc_to_prefix "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" animconv_pc_to_prefix "${animconv_pc_to_prefix}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/animconv.pc.in ${CMAKE_CURRENT_BINARY_DIR}/animconv.pc
               @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/animconv.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
